"""The compact form of a deck-game policy; see :mod:`designer.solve.compact`.

The class lives in the solve layer, which builds it from every deck solve
(:meth:`designer.solve.DeckSolution.compact_policy`); it is re-exported here
because it is a policy as well.
"""

from designer.solve.compact import CompactPolicy

__all__ = ["CompactPolicy"]
