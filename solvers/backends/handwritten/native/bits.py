"""Bit tricks as single machine instructions.

Inside the kernel a candidate mask has bit v-1 for value v (not bit v, as in the pure-Python
searches: 25 values then fit in the low bits and ``1 << n`` - 1 is every value).
"""

from __future__ import annotations

from llvmlite import ir

from solvers.backends.handwritten.native.cache import numba

intrinsic, types = numba.extending.intrinsic, numba.types


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return context.cast(builder, builder.ctpop(args[0]), signature.args[0], types.int64)

    return types.int64(x), codegen


@intrinsic
def lowbit_index(typingctx, x):
    """The index of the lowest set bit (``x`` must not be 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        index = builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        return context.cast(builder, index, signature.args[0], types.int64)

    return types.int64(x), codegen


@intrinsic
def highbit_index(typingctx, x):
    """The index of the highest set bit (``x`` must not be 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        width = ir.Constant(args[0].type, x.bitwidth - 1)
        return context.cast(builder, builder.sub(width, zeros), signature.args[0], types.int64)

    return types.int64(x), codegen
