"""Running a grid on an existing Dask cluster through joblib's dask backend.

The package must be importable on every worker, otherwise the scheduler logs
a deserialisation error and ``Parallel`` hangs silently: :func:`connect`
checks that up front and fails with a clear message.
"""

import re

from designer.errors import DesignError

_ADDRESS = re.compile(r"(?:(tcp|tls|inproc|ucx|ws|wss)://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9._-]+):([0-9]+)")


def check_address(address):
    """Refuse a scheduler address without a usable port, before any work.

    Allowed: ``[PROTOCOL://]HOST:PORT`` with PORT from 1 to 65535.
    """
    m = _ADDRESS.fullmatch(address or "")
    if m is None or not 1 <= int(m.group(3)) <= 65535:
        raise DesignError(f"invalid --scheduler={address!r}: allowed tcp://HOST:PORT "
                          "with a port from 1 to 65535, e.g. tcp://10.0.0.5:8786")
    return address



def connect(address, timeout=5):
    """Connect to a scheduler and check its workers can run designer.

    Returns
    -------
    distributed.Client
    """
    try:
        from dask.distributed import Client
    except ImportError:
        raise DesignError("the dask backend needs dask.distributed: "
                          "pip install 'designer[dask]'") from None
    check_address(address)
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DesignError(f"cannot reach the dask scheduler at {address}: {exc}") from None
    workers = client.scheduler_info().get("workers", {})
    if not workers:
        client.close()
        raise DesignError(f"the dask scheduler at {address} has no workers")
    try:
        versions = client.run(_designer_version)
    except Exception as exc:  # any worker-side failure is a setup problem
        client.close()
        raise DesignError(f"designer cannot be imported on a dask worker of {address} "
                          f"({type(exc).__name__}: {exc}); install it on every worker") from None
    from designer import __version__

    wrong = {w: v for w, v in versions.items() if v != __version__}
    if wrong:
        client.close()
        raise DesignError(f"dask workers run another designer version: {wrong} "
                          f"(here {__version__})")
    return client


def _designer_version():
    import designer

    return designer.__version__
