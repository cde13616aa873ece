package dev.ptotools.codegen.frontend.unparse;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.Statement;

/**
 * The body of a HOST-level SubWorker as pypto's decorator captures it (python/pypto/language/parser/
 * decorator.py, {@code _capture_subworker_source}): {@code "\n".join(ast.unparse(stmt) for stmt in body)},
 * with CPython 3.11's unparser. The function's source is parsed again from the module text (line endings
 * as Python reads them) and its statements unparsed by {@link PyUnparser}; a construct the port does not
 * write, or that CPython rejects, is an error at the function.
 */
public final class SubWorkerBody {

	private SubWorkerBody() {
	}

	/**
	 * The unparsed body of the function defined at {@code span} in {@code moduleText}.
	 *
	 * @throws CodegenException when the body cannot be written as pypto writes it
	 */
	public static String of(String moduleText, Span span, String name) {
		try {
			FunctionDef def = parse(moduleText, span, name);
			List<String> lines = new ArrayList<>();
			for (Statement s : def.getBody().getBody()) {
				lines.add(PyUnparser.unparse(s));
			}
			return String.join("\n", lines);
		} catch (UnparseException e) {
			throw new CodegenException("SubWorker '" + name + "': " + e.getMessage(), span);
		}
	}

	private static FunctionDef parse(String moduleText, Span span, String name) {
		int start = Math.max(0, Math.min(span.start(), moduleText.length()));
		int end = Math.max(start, Math.min(span.end(), moduleText.length()));
		int lineStart = moduleText.lastIndexOf('\n', start - 1) + 1;
		String chunk = moduleText.substring(lineStart, end).replace("\r\n", "\n").replace('\r', '\n');
		boolean indented = !chunk.isEmpty() && Character.isWhitespace(chunk.charAt(0));
		// an indented definition parses as the body of an if, so the text keeps its own indentation
		ParsedFile f = PythonFrontEnd.get().parse((indented ? "if 1:\n" : "") + chunk + "\n");
		if (f.hasProblems()) {
			throw new UnparseException("its source does not parse again on its own: " + f.problems().get(0).message());
		}
		for (TreeIterator<EObject> it = f.ast().eAllContents(); it.hasNext();) {
			if (it.next() instanceof FunctionDef def && name.equals(def.getName())) {
				return def;
			}
		}
		throw new UnparseException("its definition was not found in the source");
	}
}
