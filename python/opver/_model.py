"""What TFLite's Python API reports and opver's C API does not: the model's
tensor index of each input and output, and its shape_signature.  Read from
the .tflite FlatBuffer after libopver has verified it (opver_model_open),
so a malformed file never gets here; a struct.error would be the worst.

Field ids are those of TFLite's schema.fbs (schema/opver.fbs for all but
Tensor.shape_signature, which opver's schema omits).
"""
import mmap
import struct

_MODEL_SUBGRAPHS = 2
_SUBGRAPH_TENSORS = 0
_SUBGRAPH_INPUTS = 1
_SUBGRAPH_OUTPUTS = 2
_TENSOR_SHAPE_SIGNATURE = 7


class _Table:
    def __init__(self, buf, pos):
        self.buf = buf
        self.pos = pos

    def _offset(self, field):
        """The field's position, or None when it is absent."""
        vtable = self.pos - struct.unpack_from("<i", self.buf, self.pos)[0]
        vtable_size = struct.unpack_from("<H", self.buf, vtable)[0]
        entry = 4 + 2 * field
        if entry + 2 > vtable_size:
            return None
        offset = struct.unpack_from("<H", self.buf, vtable + entry)[0]
        return self.pos + offset if offset else None

    def _vector(self, field):
        """(position of element 0, length), or None."""
        pos = self._offset(field)
        if pos is None:
            return None
        pos += struct.unpack_from("<I", self.buf, pos)[0]
        return pos + 4, struct.unpack_from("<I", self.buf, pos)[0]

    def ints(self, field):
        vector = self._vector(field)
        if vector is None:
            return None
        pos, length = vector
        return list(struct.unpack_from("<%di" % length, self.buf, pos))

    def table(self, field, index):
        pos, length = self._vector(field)
        if index >= length:
            raise IndexError(index)
        pos += 4 * index
        return _Table(self.buf, pos + struct.unpack_from("<I", self.buf,
                                                          pos)[0])


class GraphIndices:
    """A subgraph's input and output tensor indices, and each of those
    tensors' shape_signature (None when the model stores none)."""

    def __init__(self, buf, subgraph=0):
        root = _Table(buf, struct.unpack_from("<I", buf, 0)[0])
        graph = root.table(_MODEL_SUBGRAPHS, subgraph)
        self.inputs = graph.ints(_SUBGRAPH_INPUTS) or []
        self.outputs = graph.ints(_SUBGRAPH_OUTPUTS) or []
        self.shape_signatures = {
            index: graph.table(_SUBGRAPH_TENSORS, index).ints(
                _TENSOR_SHAPE_SIGNATURE)
            for index in self.inputs + self.outputs
        }


def read_indices(path=None, content=None, subgraph=0):
    if content is not None:
        return GraphIndices(content, subgraph)
    with open(path, "rb") as file, \
            mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        return GraphIndices(buf, subgraph)
