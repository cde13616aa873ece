package dev.ptotools.codegen.host;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.support.ProgramContext;

/**
 * sub_workers/&lt;name&gt;.py for a HOST-level SubWorker, as pypto's _emit_sub_worker_module writes it: the
 * user's body in {@code _user_<name>(params)} and a dispatcher {@code <name>(args)} that unpacks the
 * mapped tensors; an abstract ({@code ...}) SubWorker becomes a guard that raises. pypto embeds the body
 * through {@code ast.unparse}; this embeds the body's source text, dedented, which means the same.
 */
public final class SubWorkerModuleWriter {

	private SubWorkerModuleWriter() {
	}

	/** Whether a function is a SubWorker that gets a module (role SubWorker at HOST level or above). */
	public static boolean applies(ProgramContext ctx, Function f) {
		FunctionInfo info = ctx.info(f);
		return HostDispatch.isSubWorker(info);
	}

	public static String write(ProgramContext ctx, Function f) {
		String name = f.name();
		if (isAbstract(f)) {
			return "\"\"\"SubWorker: " + name + " \u2014 runtime-bound callback (no default impl).\"\"\"\n\n\n" + "def "
					+ name + "(args):\n" + "    raise RuntimeError(\n" + "        \"SubWorker '" + name
					+ "' is a runtime-bound callback with no \"\n" + "        \"default implementation; supply it via \"\n"
					+ "        \"prepare(callbacks={'" + name + "': <fn>}).\"\n" + "    )\n";
		}
		List<String> params = new ArrayList<>();
		for (Param p : f.params()) {
			params.add(p.name());
		}
		String list = String.join(", ", params);
		String body = bodyText(ctx.source(), f);
		String indented = body.isEmpty() ? "    pass" : indent(body);
		StringBuilder unpack = new StringBuilder();
		for (int i = 0; i < params.size(); i++) {
			unpack.append(i > 0 ? "\n" : "").append("    ").append(params.get(i)).append(" = _tensor_from_continuous(args[")
					.append(i).append("])");
		}
		return "\"\"\"SubWorker: " + name + " \u2014 auto-generated, callable as fn(args: MappedArgs).\"\"\"\n\n"
				+ "import torch\n\n" + "from pypto.runtime.distributed_runner import _tensor_from_continuous\n\n\n"
				+ "def _user_" + name + "(" + list + "):\n" + indented + "\n\n\n" + "def " + name + "(args):\n"
				+ (unpack.length() == 0 ? "    pass" : unpack) + "\n" + "    _user_" + name + "(" + list + ")\n";
	}

	/** A body that is only {@code ...} (a docstring may precede it). */
	static boolean isAbstract(Function f) {
		boolean ellipsis = false;
		for (Stmt s : f.body()) {
			if (s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Opaque o && o.kind().equals("ellipsis")) {
				ellipsis = true;
			} else if (!(s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l && l.value() instanceof String)) {
				return false;
			}
		}
		return ellipsis;
	}

	/** The source of the body's statements, dedented by the first statement's column. */
	static String bodyText(String source, Function f) {
		if (source == null || f.body().isEmpty()) {
			return "";
		}
		int start = f.body().get(0).span().start();
		int end = f.body().get(f.body().size() - 1).span().end();
		int lineStart = source.lastIndexOf('\n', start - 1) + 1;
		int column = start - lineStart;
		List<String> out = new ArrayList<>();
		for (String line : source.substring(lineStart, Math.min(end, source.length())).split("\n", -1)) {
			out.add(line.length() >= column && line.substring(0, column).isBlank() ? line.substring(column) : line.strip());
		}
		return String.join("\n", out).stripTrailing();
	}

	/** textwrap.indent(text, "    "): every non-blank line gets four spaces. */
	static String indent(String text) {
		List<String> out = new ArrayList<>();
		for (String line : text.split("\n", -1)) {
			out.add(line.isBlank() ? line : "    " + line);
		}
		return String.join("\n", out);
	}
}
