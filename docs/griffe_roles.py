"""A griffe extension for the API pages: the package's docstrings name other
objects the Sphinx way (``:func:`~designer.solve.solve```); the manual shows
those names as code, the last part only when the name starts with ``~``."""

import re

import griffe

ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|math|obj|exc):`(~?)([^`]+)`")


def _plain(match):
    short, name = match.groups()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`target``` as ```target``` in every docstring."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_plain, obj.docstring.value)
