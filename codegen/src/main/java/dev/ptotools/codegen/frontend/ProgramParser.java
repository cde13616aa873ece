package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;

/**
 * A {@code @pl.program} class to the program IR, as pypto's {@code @pl.program} decorator builds it:
 * every {@code @pl.function} method is a GlobalVar from the start; the methods are parsed in class order
 * with one shared closure, so a call of a method defined later has no known return type.
 */
public final class ProgramParser {

	private ProgramParser() {
	}

	/**
	 * Parses the functions of a program.
	 *
	 * @param name the program's name (the class name, or {@code _jit_<entry>})
	 * @param functions the methods, in class order
	 * @param closure the Python values the bodies see besides their own variables
	 */
	public static Program parse(String name, List<dev.ptotools.analyzer.ir.Function> functions, Closure closure, String pl,
			String pld) {
		return parse(name, functions, closure, pl, pld, List.of());
	}

	/** A module-level (or builder-local) {@code @pl.function} a program calls by bare name, with its own closure. */
	public record External(String callName, dev.ptotools.analyzer.ir.Function function, Closure closure, boolean inline) {

		public External(String callName, dev.ptotools.analyzer.ir.Function function, Closure closure) {
			this(callName, function, closure, false);
		}
	}

	/**
	 * Parses a program whose methods also call module-level {@code @pl.function}s by bare name: pypto
	 * parses each of those where it is defined (with that frame's closure) and adds it to the program
	 * after the class's methods.
	 */
	public static Program parse(String name, List<dev.ptotools.analyzer.ir.Function> functions, Closure closure, String pl,
			String pld, List<External> externals) {
		return parse(name, functions, closure, pl, pld, externals, null);
	}

	/**
	 * Parses a program whose functions were lowered from {@code sourceText} (their spans are offsets into
	 * it), which HOST SubWorker bodies are written from as pypto writes them; null when there is none.
	 */
	public static Program parse(String name, List<dev.ptotools.analyzer.ir.Function> functions, Closure closure, String pl,
			String pld, List<External> externals, String sourceText) {
		if (functions.isEmpty()) {
			throw new CodegenException("Class '" + name + "' contains no @pl.function decorated methods", null);
		}
		List<ParseContext.Declared> declared = new ArrayList<>();
		for (dev.ptotools.analyzer.ir.Function f : functions) {
			declared.add(new ParseContext.Declared(f.name(), f.decl().type(), f.decl().level(), f.decl().role(),
					f.params().size()));
		}
		for (External e : externals) {
			dev.ptotools.analyzer.ir.Function f = e.function();
			if (e.inline()) {
				continue;
			}
			declared.add(new ParseContext.Declared(f.name(), f.decl().type(), f.decl().level(), f.decl().role(),
					f.params().size()));
		}
		ParseContext ctx = new ParseContext(closure, pl, pld, declared);
		ctx.sourceText = sourceText;
		for (dev.ptotools.analyzer.ir.Function f : functions) {
			ctx.programFunctions.add(f.name());
		}
		List<Function> parsedExternals = new ArrayList<>();
		for (External e : externals) {
			if (e.inline()) {
				ctx.inlines.put(e.callName(), e.function());
			} else {
				ctx.externals.put(e.callName(), e.function().name());
			}
		}
		for (External e : externals) {
			dev.ptotools.analyzer.ir.Function f = e.function();
			if (e.inline()) {
				continue;
			}
			ParseContext own = new ParseContext(e.closure(), pl, pld, declared);
			own.sourceText = sourceText;
			own.externals.putAll(ctx.externals);
			own.inlines.putAll(ctx.inlines);
			own.parsed.putAll(ctx.parsed);
			Function parsed = new FunctionParser(own).parse(f, f.decl().type(), f.decl().level(), f.decl().role(), attrs(f));
			ctx.parsed.put(f.name(), parsed);
			parsedExternals.add(parsed);
		}
		List<Function> out = new ArrayList<>();
		for (dev.ptotools.analyzer.ir.Function f : functions) {
			if (!f.decl().problems().isEmpty()) {
				throw new CodegenException(f.decl().problems().get(0),
						f.decl().decoratorSpan() != null ? f.decl().decoratorSpan() : f.nameSpan());
			}
			FunctionType type = f.decl().type();
			Level level = f.decl().level();
			Role role = f.decl().role();
			Map<String, Object> attrs = attrs(f);
			boolean subWorker = level != null && level.ordinal() >= Level.HOST.ordinal() && role == Role.SubWorker;
			Function parsed = subWorker ? new FunctionParser(ctx).parseSubWorker(f, type, level, role, attrs)
					: new FunctionParser(ctx).parse(f, type, level, role, attrs);
			ctx.parsed.put(f.name(), parsed);
			out.add(parsed);
		}
		out.addAll(parsedExternals);
		return new Program(name, out);
	}

	/** The function attributes a decorator sets: auto_scope=False, attrs={...}. */
	private static Map<String, Object> attrs(dev.ptotools.analyzer.ir.Function f) {
		Map<String, Object> attrs = new LinkedHashMap<>();
		Expr autoScope = f.decl().keyword("auto_scope");
		if (autoScope instanceof Expr.Literal l && Boolean.FALSE.equals(l.value())) {
			attrs.put("auto_scope", false);
		} else if (autoScope != null && !(autoScope instanceof Expr.Literal)) {
			throw new CodegenException("auto_scope must be a bool literal", autoScope.span());
		}
		return attrs;
	}
}
