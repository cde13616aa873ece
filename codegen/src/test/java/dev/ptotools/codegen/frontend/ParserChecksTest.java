package dev.ptotools.codegen.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.Problem;
import dev.ptotools.codegen.support.Sources;

/**
 * Checks pypto's parser and op deducers make while a program is built, one family per case: the
 * rejected program gets pypto's message at the line (and column) pypto's parser points at, and its
 * neighbour one token away is accepted. Messages from pypto's ast_parser.py, ir/utils.py and
 * src/ir/op/distributed/system.cpp (e2d0f78).
 */
class ParserChecksTest {

	/** An InCore kernel whose body is {@code body}; {@code head} precedes the class (module constants). */
	private static String kernel(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
				          sig: pld.DistributedTensor[[4], pl.INT32]) -> pl.Tensor[[64, 64], pl.FP32]:
				%s
				        return out
				""".formatted(body.indent(8).stripTrailing());
	}

	/** An orchestration calling k with {@code call}. */
	private static String orchestration(String call) {
		return orchestrationBody("out = " + call);
	}

	/** An orchestration around k whose body (before {@code return out}) is {@code body}, from line 16. */
	private static String orchestrationBody(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Tensor[[64, 64], pl.FP32],
				          out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        t = pl.load(x, [0, 0], [64, 64])
				        out = pl.store(t, [0, 0], out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[64, 64], pl.FP32],
				             out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				%s
				        return out
				""".formatted(body.indent(8).stripTrailing());
	}

	/**
	 * The program built in a test that does not compile it: only pypto's front end runs on it (an InCore
	 * kernel's bare defer_wait is refused later, by a pass, for want of a task-level scope).
	 */
	private static final String PAD_HINT = "Use pl.PadValue.zero / pl.PadValue.max / pl.PadValue.min, or one of the "
			+ "literals 0, 0.0, math.inf, -math.inf.";

	/** An orchestration whose second pl.at scope (line 22) waits on {@code deps}; n is a DSL scalar. */
	private static String atDeps(String deps) {
		String scope = "    t = pl.load(x, [0, 0], [64, 64])\n    out = pl.store(t, [0, 0], out)\n";
		return orchestrationBody("tids = pl.array.create(2, pl.TASK_ID)\n"
				+ "with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s1\") as t1:\n" + scope
				+ "tids[0] = t1\nn = pl.tensor.dim(x, 0)\nwith pl.at(level=pl.Level.CORE_GROUP, name_hint=\"s2\", deps=" + deps
				+ "):\n" + scope);
	}

	/** A kernel pushing to and pulling from a peer's window, whose body (from line 9) is {@code body}. */
	private static String remote(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function
				    def kernel(self, x: pl.Tensor[[16, 8], pl.FP16], data: pld.DistributedTensor[[64, 32], pl.FP16],
				               peer: pl.Scalar[pl.INT32]):
				%s
				""".formatted(body.indent(8).stripTrailing());
	}

	/** A host orchestrator whose body (from line 9, after x = 0) is {@code body}. */
	private static String hostBody(String body) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        x = 0
				%s
				        return 0
				""".formatted(body.indent(8).stripTrailing());
	}

	/** A standalone function whose parameter's shape (line 8) is the module constant or name {@code shape}. */
	private static String shaped(String shape) {
		return Sources.HEADER + """
				SHAPE = [128, 64]
				NAME = "128x64"

				@pl.function
				def f(x: pl.Tensor[%s, pl.FP32]) -> pl.Tensor[[128, 64], pl.FP32]:
				    return x
				""".formatted(shape);
	}

	private static final String MATMUL_ACC = "a = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)\n"
			+ "acc = pl.tile.create([16, 16], pl.FP32, target_memory=pl.MemorySpace.Acc)\n";

	private static String parsedOnly(String src) {
		String header = Sources.HEADER;
		return header + "def test_built():\n" + src.substring(header.length()).indent(4);
	}

	/** A standalone function writing into out through a subscript ({@code body}); src is [rows, cols]. */
	private static String subscriptWrite(String src, String body) {
		return Sources.HEADER + """
				@pl.function
				def f(out: pl.Tensor[[64, 128], pl.FP32], src: pl.Tensor[%s, pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
				%s
				    return out
				""".formatted(src, body.indent(4).stripTrailing());
	}

	/** A HOST orchestrator reducing a window of {@code dtype} over the ranks (the reduce on line 18). */
	private static String hostAllreduce(String dtype) {
		return Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_orch(self, data: pld.DistributedTensor[[256], pl.%1$s]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        data_buf = pld.alloc_window_buffer(256 * pl.%1$s.get_byte())
				        signal_buf = pld.alloc_window_buffer(4 * pl.INT32.get_byte())
				        data = pld.window(data_buf, [256], dtype=pl.%1$s)
				        signal = pld.window(signal_buf, [4], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				        pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Sum)
				        return 0
				""".formatted(dtype);
	}

	private static final String AT = "with pl.at(level=pl.Level.CORE_GROUP, %s):\n    y = pl.add(x, x)";

	static List<Arguments> cases() {
		return List.of(
				Arguments.of("optimizations twice", kernel(AT.formatted(
						"optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.split(pl.SplitMode.UP_DOWN)]")),
						kernel(AT.formatted("optimizations=[pl.split(pl.SplitMode.UP_DOWN)]")),
						"Duplicate 'pl.split(...)' in optimizations=[...]", 9),
				Arguments.of("slot count literal", kernel(AT.formatted("optimizations=[pl.cross_core_slot(slot_num=0)]")),
						kernel(AT.formatted("optimizations=[pl.cross_core_slot(slot_num=2)]")),
						"pl.cross_core_slot(slot_num=...) must be positive, got 0", 9),
				Arguments.of("slot count twice", kernel(AT.formatted(
						"optimizations=[pl.split(pl.SplitMode.UP_DOWN, slot_num=2), pl.cross_core_slot(slot_num=2)]")),
						kernel(AT.formatted(
								"optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)]")),
						"optimizations=[...] sets the cross-core slot count twice: via the deprecated "
								+ "pl.split(slot_num=...) and via pl.cross_core_slot(...)", 9),
				Arguments.of("optimizations entry", kernel(AT.formatted("optimizations=[pl.SplitMode.UP_DOWN]")),
						kernel(AT.formatted("optimizations=[]")), "Unsupported entry in pl.at(optimizations=[...])", 9),
				Arguments.of("name_hint", kernel(AT.formatted("name_hint=\"has space\"")),
						kernel(AT.formatted("name_hint=\"has_space\"")),
						"pl.at() 'name_hint' must be a valid non-keyword identifier, got 'has space'", 9),
				Arguments.of("cast mode", kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.cast(t, target_type=pl.BF16, mode=9)"),
						kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.cast(t, target_type=pl.BF16, mode=6)"),
						"pl operation 'cast': Invalid rounding mode 9. Expected int in range [0, 6].", 10),
				Arguments.of("defer_wait offset", kernel("pld.system.defer_wait(sig, offsets=[0.5], expected=1, cmp=pld.WaitCmp.Ge)"),
						parsedOnly(kernel("pld.system.defer_wait(sig, offsets=[0], expected=1, cmp=pld.WaitCmp.Ge)")),
						"pld.system.defer_wait offset 0 must be an integer or index scalar, got fp32", 9),
				Arguments.of("defer_wait comparison", kernel("pld.system.defer_wait(sig, offsets=[0], expected=1, cmp=pld.WaitCmp.Eq)"),
						parsedOnly(kernel("pld.system.defer_wait(sig, offsets=[0], expected=1, cmp=pld.WaitCmp.Ge)")),
						"pld.system.defer_wait only supports WaitCmp.Ge (got int 0)", 9),
				Arguments.of("subscript-write extent", subscriptWrite("[8, 32]", "out[0:16, 0:32] = src"),
						subscriptWrite("[8, 32]", "out[0:8, 0:32] = src"),
						"Subscript-write shape mismatch on source axis 0: window expects 16 elements, source has 8", 6),
				Arguments.of("subscript-write narrowed source", subscriptWrite("[16, 8]",
						"narrowed = pl.set_validshape(src, 16, 4)\nout[0:16, 0:6] = narrowed"),
						subscriptWrite("[16, 8]", "narrowed = pl.set_validshape(src, 16, 4)\nout[0:16, 0:4] = narrowed"),
						"Subscript-write shape mismatch on source axis 1: window expects 6 elements, source has 8", 7),
				Arguments.of("subscript-write rank", subscriptWrite("[32]", "out[0:1, 0:32] = src"),
						subscriptWrite("[32]", "out[0, 0:32] = src"),
						"Subscript-write source must be 2D to match the rank-reduced tensor window, got 1D", 6),
				Arguments.of("subscript-write indices", subscriptWrite("[1, 128]", "out[0, 0, 0] = src"),
						subscriptWrite("[1, 128]", "out[0:1, :] = src"),
						"Tensor subscript-write has 3 indices but the tensor is 2D", 6),
				Arguments.of("dump_tag outside an orchestration", kernel("pl.dump_tag(x)"),
						orchestrationBody("pl.dump_tag(x)\nout = self.k(x, out)"),
						"pl.dump_tag() is only valid inside an Orchestration or Inline function", 9),
				Arguments.of("dump_tag arguments", orchestrationBody("pl.dump_tag(x, out)\nout = self.k(x, out)"),
						orchestrationBody("pl.dump_tag(x)\nout = self.k(x, out)"),
						"pl.dump_tag() takes exactly one positional argument (no keywords)", 16),
				Arguments.of("static_assert arguments", kernel("pl.static_assert(True, \"a\", \"b\")"),
						kernel("pl.static_assert(True, \"a\")"), "static_assert() requires 1 or 2 arguments", 9),
				Arguments.of("static_print arguments", kernel("pl.static_print()"), kernel("pl.static_print(x)"),
						"static_print() requires at least 1 argument", 9),
				Arguments.of("spmd_submit sync_start", orchestrationBody(
						"with pl.manual_scope():\n    out, _ = pl.spmd_submit(self.k, x, out, core_num=4, sync_start=1)"),
						orchestrationBody("with pl.manual_scope():\n    out, _ = pl.spmd_submit(self.k, x, out, core_num=4, "
								+ "sync_start=True)"),
						"sync_start must be a boolean literal (True/False)", 17),
				Arguments.of("submit core_num", orchestrationBody(
						"with pl.manual_scope():\n    out, _ = pl.submit(self.k, x, out, core_num=4)"),
						orchestrationBody("with pl.manual_scope():\n    out, _ = pl.submit(self.k, x, out)"),
						"Function 'k' does not accept keyword argument 'core_num'", 17),
				Arguments.of("cluster-nested spmd with a TaskId", orchestrationBody(
						"with pl.cluster():\n    with pl.spmd(4) as tid:\n        out = self.k(x, out)"),
						orchestrationBody("with pl.cluster():\n    with pl.spmd(4):\n        out = self.k(x, out)"),
						"`with pl.spmd(...) as tid:` cannot capture a TaskId when nested inside `pl.cluster()` — a "
								+ "cluster-nested pl.spmd is unwrapped into the Group function and never produces a Submit.", 17),
				Arguments.of("wrapper arguments", kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.tile.exp(t, t)"),
						kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.tile.exp(t)"),
						"Error in pl.tile operation 'exp': exp() takes 1 positional argument but 2 were given", 10),
				Arguments.of("wrapper keyword", kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.tile.exp(t, mode=1)"),
						kernel("t = pl.load(x, [0, 0], [64, 64])\nc = pl.tile.exp(t)"),
						"Error in pl.tile operation 'exp': exp() got an unexpected keyword argument 'mode'", 10),
				Arguments.of("func_attr placement", kernel("t = pl.load(x, [0, 0], [64, 64])\npl.func_attr({\"windowize\": True})"),
						kernel("pl.func_attr({\"windowize\": True})\nt = pl.load(x, [0, 0], [64, 64])"),
						"pl.func_attr() must appear before every other statement in 'k'", 10),
				Arguments.of("func_attr twice", kernel("pl.func_attr({\"split\": pl.SplitMode.UP_DOWN})\n"
						+ "pl.func_attr({\"split\": pl.SplitMode.LEFT_RIGHT})"),
						kernel("pl.func_attr({\"split\": pl.SplitMode.UP_DOWN})\npl.func_attr({\"windowize\": True})"),
						"Duplicate function attribute 'split' in function 'k'. Each attribute may be declared only once.", 10),
				Arguments.of("no_dep_args twice", orchestrationBody("with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[x, x]):\n"
						+ "    t = pl.load(x, [0, 0], [64, 64])\n    out = pl.store(t, [0, 0], out)"),
						orchestrationBody("with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[x]):\n"
								+ "    t = pl.load(x, [0, 0], [64, 64])\n    out = pl.store(t, [0, 0], out)"),
						"pl.at(no_dep_args=[...]) lists 'x' more than once", 16),
				Arguments.of("submit deps entry", orchestrationBody("with pl.manual_scope():\n    a, t = pl.submit(self.k, x, out)\n"
						+ "    out, _ = pl.submit(self.k, x, a, deps=[a])"),
						orchestrationBody("with pl.manual_scope():\n    a, t = pl.submit(self.k, x, out)\n"
								+ "    out, _ = pl.submit(self.k, x, a, deps=[t])"),
						"'k' deps= entries must be a TaskId variable, a TASK_ID array element (e.g. `arr[i]`), or None — got 'a'",
						18),
				Arguments.of("submit allow_early_resolve", orchestrationBody(
						"with pl.manual_scope():\n    out, _ = pl.submit(self.k, x, out, allow_early_resolve=1)"),
						orchestrationBody("with pl.manual_scope():\n    out, _ = pl.submit(self.k, x, out, allow_early_resolve=True)"),
						"'k' allow_early_resolve must be a boolean literal (True/False)", 17),
				Arguments.of("submit dumps", orchestrationBody("with pl.manual_scope():\n    y = pl.create_tensor([64, 64], dtype=pl.FP32)\n"
						+ "    out, _ = pl.submit(self.k, x, out, dumps=[y])"),
						orchestrationBody("with pl.manual_scope():\n    out, _ = pl.submit(self.k, x, out, dumps=[x])"),
						"'k' dumps= entry 'y' is not an argument of this submit", 18),
				Arguments.of("DN shorthand", subscriptWrite("[8, 32], pl.FP32, pl.DN", "out[0:8, 0:32] = src").replace(
						"[8, 32], pl.FP32, pl.DN, pl.FP32]", "[8, 32], pl.FP32, pl.DN]"),
						subscriptWrite("[8, 32]", "out[0:8, 0:32] = src"),
						"pl.Tensor[..., pl.DN] is not supported: the DN layout-only shorthand forces two coordinate systems "
								+ "(IR-logical post-view vs. runtime row-major) onto one annotation", 5),
				Arguments.of("unified op on a scalar", kernel("s = pl.tensor.read(x, [0, 0])\ne = pl.exp(s)"),
						kernel("s = pl.tensor.read(x, [0, 0])\ne = pl.exp(x)"),
						"Error in pl operation 'exp': pl.exp: expected Tensor or Tile, got Scalar", 10),
				Arguments.of("allreduce dtype", hostAllreduce("BF16"), parsedOnly(hostAllreduce("FP32")),
						"pld.tensor.allreduce target dtype must be FP16 or FP32, got bfloat16", 18),
				Arguments.of("split with a split_aiv region", orchestrationBody(
						"with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):\n"
								+ "    for aiv in pl.split_aiv(2, mode=pl.SplitMode.NONE):\n"
								+ "        t = pl.load(x, [0, 0], [64, 64])\n        out = pl.store(t, [0, 0], out)"),
						parsedOnly(orchestrationBody("with pl.at(level=pl.Level.CORE_GROUP):\n"
								+ "    for aiv in pl.split_aiv(2, mode=pl.SplitMode.NONE):\n"
								+ "        t = pl.load(x, [0, 0], [64, 64])\n        out = pl.store(t, [0, 0], out)")),
						"scope combines a function-level pl.split(pl.SplitMode.UP_DOWN) (optimizations=[pl.split(...)]) with a "
								+ "pl.split_aiv region; these are mutually exclusive AIV-split mechanisms — the function-level "
								+ "split would be silently dropped (the per-region split governs the lanes)", 17),
				Arguments.of("comm context of a plain tensor", kernel("c = pld.get_comm_ctx(x)"),
						parsedOnly(kernel("c = pld.get_comm_ctx(sig)")),
						"pld operation 'get_comm_ctx': pld.system.get_comm_ctx expects a DistributedTensor (window-bound), "
								+ "got TensorType", 9),
				Arguments.of("arg_directions length", orchestration("self.k(x, out, attrs={\"arg_directions\": [pl.adir.input]})"),
						orchestration("self.k(x, out, attrs={\"arg_directions\": [pl.adir.input, pl.adir.output_existing]})"),
						"attrs['arg_directions'] length (1) on call to 'k' must match positional arg count (2)", 16),
				Arguments.of("arg_directions marker", orchestration("self.k(x, out, attrs={\"arg_directions\": [pl.adir.input, "
						+ "pl.adir.written]})"),
						orchestration("self.k(x, out, attrs={\"arg_directions\": [pl.adir.input, pl.adir.inout]})"),
						"Unknown call-site direction marker 'pl.adir.written' in call to 'k'", 16),
				Arguments.of("fillpad pad_value int", kernel("y = pl.fillpad(x, 7)"), kernel("y = pl.fillpad(x, 0)"),
						"pl operation 'fillpad': fillpad pad_value only accepts the integer literal 0 (mapped to PadValue.zero); "
								+ "got 7. " + PAD_HINT, 9),
				Arguments.of("fillpad pad_value float", kernel("y = pl.fillpad(x, pad_value=3.14)"),
						kernel("y = pl.fillpad(x, pad_value=0.0)"),
						"pl operation 'fillpad': fillpad pad_value only accepts the float literals 0.0, math.inf, or -math.inf; "
								+ "got 3.14. " + PAD_HINT, 9),
				Arguments.of("fillpad PadValue.null", kernel("y = pl.fillpad(x, pl.PadValue.null)"),
						kernel("y = pl.fillpad(x, pl.PadValue.min)"),
						"pl operation 'fillpad': fillpad pad_value cannot be PadValue.null — that means no padding mode. "
								+ PAD_HINT, 9),
				Arguments.of("deps comprehension over a DSL loop", atDeps("[tids[k] for k in pl.range(2)]"),
						atDeps("[tids[k] for k in range(2)]"),
						"'pl.at()' deps= comprehension iterable is a DSL loop (`pl.range` / `pl.parallel` / `pl.pipeline`); "
								+ "cannot unroll at parse time", 22),
				Arguments.of("deps comprehension filter on a DSL value", atDeps("[tids[k] for k in range(2) if k < n]"),
						atDeps("[tids[k] for k in range(2) if k < 1]"),
						"'pl.at()' deps= comprehension filter depends on an IR variable; cannot unroll at parse time", 22),
				Arguments.of("tile subscript with a dynamic lower bound",
						kernel("t = pl.load(x, [0, 0], [64, 64])\nfor i in pl.range(4):\n    s = t[i:i + 8, :]"),
						kernel("t = pl.load(x, [0, 0], [64, 64])\nfor i in pl.range(4):\n    s = t[8:16, :]"),
						"Dynamic lower bounds are not supported in tile subscript", 11),
				Arguments.of("remote_store past the target", remote("pld.tensor.remote_store(x, data, peer, [56, 0])"),
						remote("pld.tensor.remote_store(x, data, peer, [48, 0])"),
						"pld.tensor.remote_store push exceeds the peer's target region in dimension 0 (offset=56, extent=16, "
								+ "target_dim=64)", 9),
				Arguments.of("remote_store of a tile at tensor level",
						remote("tile = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[32, 16])\n"
								+ "pld.tensor.remote_store(tile, data, peer, [0, 0])"),
						remote("tile = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[32, 16])\n"
								+ "pld.remote_store(tile, data, peer, [0, 0])"),
						"pld.tensor.remote_store src must be a Tensor (tensor-level value), got TileType. In a tile-level kernel "
								+ "(@pl.jit.incore / @pl.program) call pld.tile.remote_store instead (pld.remote_store dispatches "
								+ "between the two); to push one window buffer into another, use pld.tensor.put.", 10),
				Arguments.of("remote_load of a plain tensor",
						remote("t = pld.tile.remote_load(x, peer=peer, offsets=[0, 0], shape=[8, 8])"),
						remote("t = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[8, 8])"),
						"pld.tile.remote_load target must be a DistributedTensor (window-bound), got TensorType", 9),
				Arguments.of("world_size in a device scope", hostBody("with pl.at(level=pl.Level.CORE_GROUP):\n"
						+ "    n = pld.world_size()"), hostBody("n = pld.world_size()"),
						"pld.system.world_size() can only be called in HOST orchestration context (not inside InCore / SPMD "
								+ "scopes); current function level: Level.HOST", 10),
				Arguments.of("spmd deps without a task id", orchestrationBody("with pl.spmd(4, deps=[]):\n"
						+ "    out = self.k(x, out)"), orchestrationBody("with pl.spmd(4):\n    out = self.k(x, out)"),
						"pl.spmd() does not accept 'deps=' here", 16),
				Arguments.of("break in a split_aiv body", orchestrationBody("with pl.at(level=pl.Level.CORE_GROUP):\n"
						+ "    for aiv in pl.split_aiv(2, mode=pl.SplitMode.NONE):\n        t = pl.load(x, [0, 0], [64, 64])\n"
						+ "        break"),
						orchestrationBody("with pl.at(level=pl.Level.CORE_GROUP):\n"
								+ "    for aiv in pl.split_aiv(2, mode=pl.SplitMode.NONE):\n        t = pl.load(x, [0, 0], [64, 64])\n"
								+ "        for i in pl.range(2):\n            break"),
						"'break' not supported inside a 'for ... in pl.split_aiv(...)' body", 19),
				Arguments.of("shape of an unknown name", shaped("shaep"), shaped("SHAPE"), "Unknown shape variable: shaep", 8),
				Arguments.of("shape of a string", shaped("NAME"), shaped("SHAPE"),
						"Shape 'NAME' must be a list or tuple, got str", 8),
				Arguments.of("function attrs key", kernel("y = x").replace("@pl.function(type=pl.FunctionType.InCore)",
						"@pl.function(type=pl.FunctionType.InCore, attrs={1: 2})"),
						kernel("y = x").replace("@pl.function(type=pl.FunctionType.InCore)",
								"@pl.function(type=pl.FunctionType.InCore, attrs={\"core_num\": 2})"),
						"`@pl.function(attrs=...)` keys must be strings, got 1", 6),
				Arguments.of("gather_row dtypes", kernel("kv = pl.create_l1([4, 64], pl.BF16)\n"
						+ "kv = pl.gather_row(kv, x, [0, 0], [0, 0], [4, 64])"),
						kernel("kv = pl.create_l1([4, 64], pl.FP32)\nkv = pl.gather_row(kv, x, [0, 0], [0, 0], [4, 64])"),
						"pl operation 'gather_row': The operator tensor.gather_row requires acc and src to share dtype, but got "
								+ "bfloat16 and fp32", 10),
				Arguments.of("gather_row valid_shape past the window", kernel("kv = pl.create_l1([4, 64], pl.FP32)\n"
						+ "kv = pl.gather_row(kv, x, [0, 0], [0, 0], [4, 64], valid_shape=[5, 64])"),
						kernel("kv = pl.create_l1([4, 64], pl.FP32)\n"
								+ "kv = pl.gather_row(kv, x, [0, 0], [0, 0], [4, 64], valid_shape=[3, 64])"),
						"pl operation 'gather_row': tensor.gather_row valid_shape dimension 0 extent 5 provably exceeds physical "
								+ "shape extent 4", 10),
				Arguments.of("create_l1 of an empty dim", kernel("kv = pl.create_l1([4, 0], pl.FP32)"),
						kernel("kv = pl.create_l1([4, 64], pl.FP32)"),
						"pl operation 'create_l1': The operator tensor.create_l1 shape element 1 must be a positive "
								+ "compile-time ConstInt", 9),
				Arguments.of("matmul_acc init_cond", kernel(MATMUL_ACC + "o = pl.tile.matmul_acc(acc, a, a, "
						+ "init_cond=pl.read(x, [0, 0]))"),
						kernel(MATMUL_ACC + "o = pl.tile.matmul_acc(acc, a, a, init_cond=(pl.read(x, [0, 0]) == 0.0))"),
						"pl.tile operation 'matmul_acc': The operator tile.matmul_acc requires init_cond to have dtype BOOL, "
								+ "but got fp32. Write a comparison such as `k == 0` rather than passing the index itself.", 11),
				Arguments.of("transposed tile outside Mat", kernel("t = pl.tile.create([16, 128], dtype=pl.BF16, "
						+ "target_memory=pl.Mem.Vec, transpose=True)"),
						kernel("t = pl.tile.create([16, 128], dtype=pl.BF16, target_memory=pl.Mem.Mat, transpose=True)"),
						"pl.tile operation 'create': The operator tile.create supports transpose=true only for a 2D tile with "
								+ "target_memory=Mat (L1)", 9),
				Arguments.of("remote_store to a plain tensor by keyword", remote("t = pl.tile.load(x, [0, 0], [16, 8])\n"
						+ "pld.tile.remote_store(t, target=x, peer=peer, offsets=[0, 0])"),
						remote("t = pl.tile.load(x, [0, 0], [16, 8])\npld.tile.remote_store(t, target=data, peer=peer, "
								+ "offsets=[0, 0])"),
						"pld.tile.remote_store target must be a DistributedTensor (window-bound), got TensorType", 10));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void pyptosMessageAtItsLine(String family, String rejected, String accepted, String message, int line) {
		List<Problem> errors = errors(rejected);
		assertEquals(1, errors.size(), errors.toString());
		assertEquals("PTO500: " + message, errors.get(0).message());
		assertEquals(line, errors.get(0).line(), errors.get(0).toString());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void theNeighbourIsAccepted(String family, String rejected, String accepted, String message, int line) {
		assertEquals(List.of(), errors(accepted).stream().filter(p -> p.message().startsWith("PTO500")).toList());
	}

	private static List<Problem> errors(String src) {
		Generation g = Sources.generate(src, Sources.PLAIN);
		return g.problems().stream().filter(Problem::isError).toList();
	}
}
