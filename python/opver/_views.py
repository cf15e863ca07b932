"""Zero-copy numpy views of tensor memory, and which of them are alive, so
that the Interpreter refuses a call that would free memory a view still
reads, as TFLite's Python API does (its _ensure_safe).

A numpy array made from a view, and every slice or reshape of it, holds
the view object (numpy's .base chain), so a view is alive exactly as long
as some array can still read its memory; only weak references are kept
here, so tracking never keeps one alive.
"""
import weakref

import numpy as np


class View:
    """A tensor's memory as numpy sees it (__array_interface__).  Holds
    the session whose C objects own that memory, so the memory is not
    freed with the Interpreter's close() while the view is alive."""

    def __init__(self, session, index, name, data, shape, dtype):
        self._session = session
        self.index = index
        self.name = name
        self.__array_interface__ = {
            "version": 3,
            "shape": shape,
            "typestr": np.dtype(dtype).str,
            "data": (data, False),
        }


class Views:
    """The live views tensor() handed out for one Interpreter."""

    def __init__(self):
        self._live = weakref.WeakSet()

    def array(self, view):
        """A numpy array over view's memory, tracked while it lives."""
        self._live.add(view)
        return np.asarray(view)

    def ensure_none(self, call, why, indices=None):
        """Raises RuntimeError, naming call and why it would free the
        memory, when a view of a tensor in indices (None: of any tensor)
        is alive."""
        for view in list(self._live):
            if indices is None or view.index in indices:
                raise RuntimeError(
                    "%s: a numpy array from tensor() still views tensor "
                    "%d ('%s'), and %s, which would leave the array "
                    "reading freed memory: drop every such array first "
                    "(del it; keep the function tensor() returns and call "
                    "it again afterwards), or keep a copy "
                    "(get_tensor(), or array.copy())"
                    % (call, view.index, view.name, why))
