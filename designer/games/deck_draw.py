"""The chance step of a deck game, for every simulation.

Random numbers: numba's own generator (seed it with ``np.random.seed``
inside a kernel); one uniform per draw, so a seed fixes the whole game.
"""

import numpy as np

from designer._jit import kernel


@kernel
def draw_item(bad, good, w, c):
    """Draw one item at deck state ``(w, c)`` with numba's generator.

    Returns ``(was_bad, w, c)`` after the draw; drawing the last bad item
    reshuffles (``w = c = 0``), as the rules say.
    """
    w_rem = bad - w
    c_rem = good - c
    if np.random.random() * (w_rem + c_rem) < w_rem:
        w += 1
        if w == bad:
            return True, 0, 0
        return True, w, c
    return False, w, c + 1
