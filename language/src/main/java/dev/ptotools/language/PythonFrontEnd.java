package dev.ptotools.language;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.nodemodel.INode;
import org.eclipse.xtext.nodemodel.SyntaxErrorMessage;
import org.eclipse.xtext.parser.IParseResult;

import com.google.inject.Injector;

import dev.ptotools.language.parser.LexicalProblem;
import dev.ptotools.language.parser.PythonParseResult;
import dev.ptotools.language.parser.PythonSourceParser;
import dev.ptotools.language.python.PythonFactory;
import dev.ptotools.language.python.SourceFile;
import dev.ptotools.language.source.DecodedSource;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.language.syntax.PythonSyntaxChecks;

/**
 * The entry point other modules use to turn Python source into an AST with syntax problems.
 * Thread-safe; one instance serves the whole process.
 */
public final class PythonFrontEnd {

	/** The code of the problem of a NUL byte in the source, which CPython reports alone. */
	public static final String NULL_BYTE = "null-byte";
	/** The code of CPython's "too many nested parentheses", which also stops it before any statement. */
	public static final String TOO_DEEP = "too-deep";

	/** The code of problems from {@link PythonSyntaxChecks}. */
	static final String SYNTAX_CHECK = "syntax-check";

	private static volatile PythonFrontEnd shared;

	private final PythonSourceParser parser;

	private PythonFrontEnd(Injector injector) {
		this.parser = injector.getInstance(PythonSourceParser.class);
	}

	/**
	 * The process-wide front end, on an injector of the parser's bindings only ({@link PythonParserModule}:
	 * the same parser as the full runtime injector's, made in a fraction of the time).
	 */
	public static PythonFrontEnd get() {
		PythonFrontEnd f = shared;
		if (f == null) {
			synchronized (PythonFrontEnd.class) {
				f = shared;
				if (f == null) {
					f = new PythonFrontEnd(PythonParserModule.createInjector());
					shared = f;
				}
			}
		}
		return f;
	}

	/** A front end on an existing injector (the language server's). */
	public static PythonFrontEnd on(Injector injector) {
		return new PythonFrontEnd(injector);
	}

	public ParsedFile parse(String text) {
		return DeepStack.call(() -> parseHere(text, null));
	}

	public ParsedFile parse(byte[] bytes) {
		DecodedSource decoded = DecodedSource.decode(bytes);
		return DeepStack.call(() -> parseHere(decoded.text(), decoded.problem().orElse(null)));
	}

	public ParsedFile parse(Path file) throws IOException {
		return parse(Files.readAllBytes(file));
	}

	/** Parses on the calling thread, which must be a deep-stack one ({@link IncrementalParser}). */
	ParsedFile parseOnThisThread(String text) {
		return parseHere(text, null);
	}

	private ParsedFile parseHere(String text, DecodedSource.Problem decodeProblem) {
		int tooDeep = BracketNesting.firstTooDeep(text);
		if (tooDeep >= 0) {
			// the file's one problem; the lines before it parsed for what they import, so that the file
			// is still seen as a PyPTO module (whose findings the problem then stands in for)
			ParsedFile before = parseHere(text.substring(0, text.lastIndexOf('\n', tooDeep) + 1), null);
			LineMap lines = LineMap.of(text);
			SyntaxProblem p = problem(lines, tooDeep, 1, "too many nested parentheses", TOO_DEEP);
			return new ParsedFile(text, before.ast(), before.rootNode(), List.of(p), lines, before.spans());
		}
		PythonParseResult result;
		try {
			result = parser.parseText(text);
		} catch (StackOverflowError e) {
			return unparsed(text, 0, 0, "too deeply nested to parse", TOO_DEEP);
		} catch (RuntimeException e) {
			if (e.getCause() instanceof StackOverflowError) { // Xtext wraps what its parser threw
				return unparsed(text, 0, 0, "too deeply nested to parse", TOO_DEEP);
			}
			throw e;
		}
		return assemble(text, result, decodeProblem);
	}

	/** A file CPython refuses before parsing: its one problem and an empty tree. */
	private static ParsedFile unparsed(String text, int offset, int length, String message, String code) {
		LineMap lines = LineMap.of(text);
		SyntaxProblem p = problem(lines, offset, length, message, code);
		return new ParsedFile(text, PythonFactory.eINSTANCE.createSourceFile(), null, List.of(p), lines,
				SpanIndex.of((ICompositeNode) null));
	}

	/** Builds a ParsedFile from a parse that already ran (for example inside an XtextResource). */
	public static ParsedFile assemble(String text, IParseResult result, DecodedSource.Problem decodeProblem) {
		LineMap lines = LineMap.of(text);
		List<SyntaxProblem> problems = new ArrayList<>();
		if (decodeProblem != null) {
			problems.add(problem(lines, decodeProblem.offset(), 1, decodeProblem.message(), "decode"));
		}
		List<LexicalProblem> lexical = result instanceof PythonParseResult p ? p.getLexicalProblems() : List.of();
		List<Integer> logicalEnds = result instanceof PythonParseResult p ? p.getLogicalLineEnds() : List.of();
		List<Integer> parserErrors = new ArrayList<>();
		int lastParserLine = -1;
		int lastLogicalLine = -1;
		for (INode node : result.getSyntaxErrors()) {
			SyntaxErrorMessage error = node.getSyntaxErrorMessage();
			int offset = node.getOffset();
			int length = node.getLength();
			String[] data = error.getIssueData();
			if (data != null && data.length == 1 && data[0].matches("\\d+:\\d+")) {
				// The message provider moved the error to the token that is really at fault.
				String[] range = data[0].split(":");
				offset = Integer.parseInt(range[0]);
				length = Integer.parseInt(range[1]);
			}
			int line = lines.line(offset);
			int logical = logicalEnds.isEmpty() ? -2 : logicalLine(logicalEnds, offset);
			if (line == lastParserLine || logical == lastLogicalLine || isConsequence(offset, line, lexical, lines)) {
				// later errors on one line or one logical line (a call over several lines), and errors a
				// lexical problem explains, are cascades: CPython stops at the first
				continue;
			}
			lastParserLine = line;
			lastLogicalLine = logical;
			length = Math.min(length, Math.max(0, text.length() - offset));
			problems.add(problem(lines, offset, length, error.getMessage(), "syntax"));
			parserErrors.add(logical);
		}
		Set<LexicalProblem> dangling = danglingContinuation(text, lines, lexical, logicalEnds, parserErrors);
		for (LexicalProblem l : lexical) {
			if (!dangling.contains(l)) {
				problems.add(problem(lines, l.offset(), l.length(), l.message(), l.code()));
			}
		}
		SourceFile ast = result.getRootASTElement() instanceof SourceFile f ? f
				: PythonFactory.eINSTANCE.createSourceFile();
		ICompositeNode root = result.getRootNode();
		boolean noted = result instanceof PythonParseResult p && p.getSpans() != null;
		SpanIndex spans = noted ? ((PythonParseResult) result).getSpans() : SpanIndex.of(root);
		List<EObject> checked = noted ? ((PythonParseResult) result).getSyntaxCheckObjects() : spans.objects();
		// checks of a tree the parser had to repair would report its repairs (errors it dropped as cascades too)
		if (!result.getSyntaxErrors().iterator().hasNext()) {
			PythonSyntaxChecks.check(checked, (o, l, m) -> problems.add(problem(lines, o, l, m, SYNTAX_CHECK)));
		}
		problems.sort(Comparator.comparingInt(SyntaxProblem::offset));
		// One problem per line, the first, as CPython stops at it: `x = 1)))` is one unmatched ')'.
		for (int i = problems.size() - 1; i > 0; i--) {
			if (problems.get(i).line() == problems.get(i - 1).line()) {
				problems.remove(i);
			}
		}
		// CPython refuses a file with a NUL byte before it tokenizes anything else: one error, whatever
		// else a binary file holds (thousands of parser errors otherwise), wherever the byte sits (in a
		// string or a comment too, and on a line whose first problem is another).
		int nul = text.indexOf('\0');
		if (nul >= 0) {
			SyntaxProblem p = problem(lines, nul, 1, "source code cannot contain null bytes", NULL_BYTE);
			return new ParsedFile(text, ast, root, List.of(p), lines, spans);
		}
		return new ParsedFile(text, ast, root, List.copyOf(problems), lines, spans);
	}

	/**
	 * The lines left of a multi-line call whose first line broke ({@code recv = pld.tile.remote_load(} cut
	 * short): an indented line right under a logical line with a parser error, and the line with a lone
	 * closer that ends those lines. Their "unexpected indent" and "unmatched ')'" are consequences of that
	 * error, which CPython reports alone.
	 */
	private static Set<LexicalProblem> danglingContinuation(String text, LineMap lines, List<LexicalProblem> lexical,
			List<Integer> logicalEnds, List<Integer> parserErrorLines) {
		Set<LexicalProblem> out = new HashSet<>();
		if (logicalEnds.isEmpty() || parserErrorLines.isEmpty()) {
			return out;
		}
		for (int i = 0; i < lexical.size(); i++) {
			LexicalProblem indent = lexical.get(i);
			if (!indent.code().equals("unexpected-indent")
					|| !parserErrorLines.contains(logicalLine(logicalEnds, indent.offset()) - 1)) {
				continue;
			}
			out.add(indent);
			int column = lines.column(indent.offset());
			for (int j = i + 1; j < lexical.size(); j++) {
				LexicalProblem closer = lexical.get(j);
				if (closer.code().equals("unmatched-bracket")) {
					if (indentedFrom(text, lines, lines.line(indent.offset()) + 1, lines.line(closer.offset()), column)) {
						out.add(closer);
					}
					break;
				}
			}
		}
		return out;
	}

	/** Whether every non-blank line from first to last (exclusive) is indented at least to column. */
	private static boolean indentedFrom(String text, LineMap lines, int first, int last, int column) {
		for (int line = first; line < last; line++) {
			int start = lines.lineStart(line);
			int col = 1;
			while (start + col - 1 < text.length() && text.charAt(start + col - 1) == ' ') {
				col++;
			}
			char c = start + col - 1 < text.length() ? text.charAt(start + col - 1) : '\n';
			if (c != '\n' && c != '\r' && c != '#' && col < column) {
				return false;
			}
		}
		return true;
	}

	/** The index of the logical line holding an offset: how many logical lines end before it. */
	private static int logicalLine(List<Integer> ends, int offset) {
		int i = java.util.Collections.binarySearch(ends, offset);
		return i >= 0 ? i : -i - 1;
	}

	private static boolean isConsequence(int offset, int line, List<LexicalProblem> lexical, LineMap lines) {
		for (LexicalProblem l : lexical) {
			if (offset >= l.consequencesStart() && offset <= l.consequencesEnd()) {
				return true;
			}
			if (lines.line(l.offset()) == line) {
				return true;
			}
		}
		return false;
	}

	static SyntaxProblem problem(LineMap lines, int offset, int length, String message, String code) {
		int end = offset + Math.max(0, length);
		return new SyntaxProblem(offset, Math.max(0, length), lines.line(offset), lines.column(offset), lines.line(end),
				lines.column(end), message, code);
	}
}
