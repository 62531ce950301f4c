"""The session loop is called through its machine code's entry point: an array of another type is refused, never read."""

from __future__ import annotations

import numpy as np
import pytest
from numba import types
from numba.np.numpy_support import as_dtype

from baccarat.engine.session_loop import session_loop
from baccarat.engine.twin_play import _check_arrays, _loop_entry


def test_an_array_of_another_type_or_layout_is_refused() -> None:
    _loop_entry()
    (signature,) = session_loop().signatures
    arguments = [np.zeros((2,) * kind.ndim, dtype=as_dtype(kind.dtype)) if isinstance(kind, types.Array) else 0 for kind in signature]
    _check_arrays(arguments)
    assert signature[1] == types.int64[::1]
    for wrong in (
        np.zeros(2, dtype=np.int32),
        np.zeros(2, dtype=">i8"),
        np.zeros((2, 2), dtype=np.int64),
        np.zeros(4, dtype=np.int64)[::2],
        [0, 0],
    ):
        with pytest.raises(TypeError, match="argument 2 of the session loop"):
            _check_arrays([arguments[0], wrong, *arguments[2:]])
    readonly = np.zeros(2, dtype=np.int64)
    readonly.flags.writeable = False
    with pytest.raises(TypeError, match="argument 2 of the session loop is not a writeable"):
        _check_arrays([arguments[0], readonly, *arguments[2:]])
