"""Atomic counters and a clock for the engine's worker threads.

The engine's parallel solve (:func:`designer.engine._kernels.solve_pairs`)
does not wait for every pair of one score sum before the next sum starts:
each worker claims the next pair from a shared counter and waits only for
the pairs that pair reads, and not for long. Numba has no atomics of its
own, so this module gives the ones it needs as LLVM instructions
(compiled into the caller, so ``cache=True`` keeps working), and the
processor's cycle counter to time a wait.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

def _pointer(context, builder, aryty, ary, idx):
    arr = context.make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer(context, builder, aryty, arr, [idx])


@intrinsic
def fetch_add(typingctx, arr, idx, val):
    """``arr[idx] += val`` atomically (int64 array); returns the old value."""
    sig = types.int64(arr, idx, val)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", ptr, args[2], "seq_cst")

    return sig, codegen


@intrinsic
def load_acquire(typingctx, arr, idx):
    """``arr[idx]`` (int64 array), read after every write that preceded the
    :func:`store_release` or :func:`fetch_add` it observes."""
    sig = types.int64(arr, idx)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.load_atomic(ptr, "acquire", 8)

    return sig, codegen


@intrinsic
def store_release(typingctx, arr, idx, val):
    """``arr[idx] = val`` (int64 array), visible only after every earlier write."""
    sig = types.void(arr, idx, val)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, signature.args[0], args[0], args[1])
        builder.store_atomic(args[2], ptr, "release", 8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter (a clock for waits, not for reports)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen
