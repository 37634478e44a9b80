"""Running a grid on an existing Dask cluster through joblib's dask backend.

The package must be importable on every worker, otherwise the scheduler logs
a deserialisation error and ``Parallel`` hangs silently: :func:`connect`
checks that up front and fails with a clear message.
"""

from designer.errors import DesignError


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
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
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
