"""Monte Carlo evaluators: replays of exact policies and games with no solver."""
