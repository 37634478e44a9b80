"""Building policies from play: the neural policy's training."""

from designer.training.neural import DEFAULT_GAMES, DEFAULT_STAKE, TrainingResult, train_nn

__all__ = ["DEFAULT_GAMES", "DEFAULT_STAKE", "TrainingResult", "train_nn"]
