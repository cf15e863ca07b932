"""The records of opver-run --json's --list-plugins and --explain modes
(tools/opver_run_list.c, tools/opver_run_explain.c and
opver_run_signature.c), built from the same
public API calls, as dicts and lists that json.dumps writes as the tool
does.
"""
import ctypes

from . import _native as n
from . import _signature

# Bit 31 of an input mask: the input may be omitted (OPVER_TYPE_BIT_ABSENT).
_ABSENT_BIT = 1 << 31


def _mask(mask):
    """Type names a mask accepts ("absent" for an optional input), or None
    when it accepts anything."""
    if mask == 0:
        return None
    names = [n.type_name(t) for t in range(31) if mask & (1 << t)]
    if mask & _ABSENT_BIT:
        names.append("absent")
    return names


def _types(record, input_types, output_types):
    # Positions up to the last constrained one; later ones accept any.
    count = len(input_types)
    while count > 0 and input_types[count - 1] == 0:
        count -= 1
    record["input_types"] = [_mask(m) for m in input_types[:count]]
    record["output_types"] = _mask(output_types)
    return record


def _plugin_info(session, plugin):
    info = n.PluginInfo()
    session.log.check(n.plugin_info(session.runtime, plugin,
                                    ctypes.byref(info), ctypes.sizeof(info)))
    return info


def _kernel(session, plugin, kernel):
    k = n.KernelInfo()
    session.log.check(n.kernel_info(session.runtime, plugin, kernel,
                                    ctypes.byref(k), ctypes.sizeof(k)))
    return _types({
        "name": n.text(k.name),
        "op": n.op_name(k.op),
        "custom_name": n.text(k.custom_name),
        "min_version": k.min_version,
        "max_version": k.max_version,
        "priority": k.priority,
        "stateless": bool(k.stateless),
    }, list(k.input_types), k.output_types)


def _delegate_op(session, plugin, op):
    d = n.DelegateOpInfo()
    session.log.check(n.delegate_op_info(session.runtime, plugin, op,
                                         ctypes.byref(d), ctypes.sizeof(d)))
    return _types({
        "op": n.op_name(d.op),
        "custom_name": n.text(d.custom_name),
        "min_version": d.min_version,
        "max_version": d.max_version,
    }, list(d.input_types), d.output_types)


def _plugin(session, plugin):
    info = _plugin_info(session, plugin)
    delegate = None
    if info.delegate_name is not None:
        delegate = {
            "name": n.text(info.delegate_name),
            "ops": [_delegate_op(session, plugin, i)
                    for i in range(info.num_delegate_ops)],
        }
    return {
        "file": n.text(info.file),
        "config_name": n.text(info.config_name),
        "name": n.text(info.name),
        "vendor": n.text(info.vendor),
        "version": n.text(info.version),
        "abi": "%d.%d" % (info.abi_major, info.abi_minor),
        "kernels": [_kernel(session, plugin, i)
                    for i in range(info.num_kernels)],
        "delegate": delegate,
    }


def plugins(session):
    """opver-run --list-plugins --json's "plugins" array."""
    return [_plugin(session, i)
            for i in range(n.plugin_count(session.runtime))]


def _node(session, index):
    node = n.NodeInfo()
    # Only an index out of range fails.
    n.node_info(session.interpreter, index, ctypes.byref(node),
                ctypes.sizeof(node))
    return {
        "index": node.index,
        "op": n.op_name(node.op),
        "custom_name": n.text(node.custom_name),
        "version": node.version,
        "required_version": node.required_version,
        "reason": n.text(node.version_reason),
        "stored_below_required": node.version < node.required_version,
        "input_types": [None if node.input_types[i] < 0 else
                        n.type_name(node.input_types[i])
                        for i in range(node.num_inputs)],
        "plugin": n.text(node.plugin),
        "kernel": n.text(node.kernel),
        "delegate": n.text(node.delegate),
        "fallback": bool(node.fallback),
    }


def explain(session, model_name):
    """opver-run --explain --json's document for a model that runs."""
    metadata = n.text(n.model_min_runtime_version(session.model))
    computed = n.text(n.model_computed_runtime_version(session.model))
    arena, naive = ctypes.c_size_t(), ctypes.c_size_t()
    n.interpreter_memory(session.interpreter, ctypes.byref(arena),
                         ctypes.byref(naive))
    loaded = [_plugin_info(session, i)
              for i in range(n.plugin_count(session.runtime))]
    return {
        "model": model_name,
        "min_runtime_version": {
            "computed": computed,
            "metadata": metadata,
            "agree": metadata is not None and metadata == computed,
        },
        "plugins": [{
            "config_name": n.text(p.config_name),
            "file": n.text(p.file),
            "name": n.text(p.name),
            "version": n.text(p.version),
        } for p in loaded],
        "signatures": [{
            "key": key,
            "subgraph": subgraph,
            "inputs": [{"name": name, "tensor": tensor}
                       for name, tensor in inputs],
            "outputs": [{"name": name, "tensor": tensor}
                        for name, tensor in outputs],
        } for key, subgraph, inputs, outputs in _signature.read(session)],
        "memory": {"arena_bytes": arena.value,
                   "naive_bytes": naive.value},
        "nodes": [_node(session, i)
                  for i in range(n.node_count(session.interpreter))],
    }
