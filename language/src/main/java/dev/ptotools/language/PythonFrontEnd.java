package dev.ptotools.language;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

	private static volatile PythonFrontEnd shared;

	private final PythonSourceParser parser;

	private PythonFrontEnd(Injector injector) {
		this.parser = injector.getInstance(PythonSourceParser.class);
	}

	/** The process-wide front end on the standalone (non-ide) injector. */
	public static PythonFrontEnd get() {
		PythonFrontEnd f = shared;
		if (f == null) {
			synchronized (PythonFrontEnd.class) {
				f = shared;
				if (f == null) {
					f = new PythonFrontEnd(new PythonStandaloneSetup().createInjectorAndDoEMFRegistration());
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

	private ParsedFile parseHere(String text, DecodedSource.Problem decodeProblem) {
		PythonParseResult result;
		try {
			result = parser.parseText(text);
		} catch (StackOverflowError e) {
			LineMap lines = LineMap.of(text);
			SyntaxProblem p = problem(lines, 0, 0, "too deeply nested to parse", "too-deep");
			return new ParsedFile(text, PythonFactory.eINSTANCE.createSourceFile(), null, List.of(p), lines,
					SpanIndex.of((ICompositeNode) null));
		}
		return assemble(text, result, decodeProblem);
	}

	/** Builds a ParsedFile from a parse that already ran (for example inside an XtextResource). */
	public static ParsedFile assemble(String text, IParseResult result, DecodedSource.Problem decodeProblem) {
		LineMap lines = LineMap.of(text);
		List<SyntaxProblem> problems = new ArrayList<>();
		if (decodeProblem != null) {
			problems.add(problem(lines, decodeProblem.offset(), 1, decodeProblem.message(), "decode"));
		}
		List<LexicalProblem> lexical = result instanceof PythonParseResult p ? p.getLexicalProblems() : List.of();
		for (LexicalProblem l : lexical) {
			problems.add(problem(lines, l.offset(), l.length(), l.message(), l.code()));
		}
		int lastParserLine = -1;
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
			if (line == lastParserLine || isConsequence(offset, line, lexical, lines)) {
				continue; // later errors on one line, and errors a lexical problem explains, are cascades
			}
			lastParserLine = line;
			length = Math.min(length, Math.max(0, text.length() - offset));
			problems.add(problem(lines, offset, length, error.getMessage(), "syntax"));
		}
		SourceFile ast = result.getRootASTElement() instanceof SourceFile f ? f
				: PythonFactory.eINSTANCE.createSourceFile();
		ICompositeNode root = result.getRootNode();
		SpanIndex spans = SpanIndex.of(root);
		if (problems.isEmpty() || !hasParserError(problems)) {
			PythonSyntaxChecks.check(spans.objects(), (o, l, m) -> problems.add(problem(lines, o, l, m, "syntax-check")));
		}
		problems.sort(Comparator.comparingInt(SyntaxProblem::offset));
		return new ParsedFile(text, ast, root, List.copyOf(problems), lines, spans);
	}

	private static boolean isConsequence(int offset, int line, List<LexicalProblem> lexical, LineMap lines) {
		for (LexicalProblem l : lexical) {
			if (offset >= l.offset() && offset <= l.consequencesEnd()) {
				return true;
			}
			if (lines.line(l.offset()) == line) {
				return true;
			}
		}
		return false;
	}

	private static boolean hasParserError(List<SyntaxProblem> problems) {
		return problems.stream().anyMatch(p -> p.code().equals("syntax"));
	}

	static SyntaxProblem problem(LineMap lines, int offset, int length, String message, String code) {
		int end = offset + Math.max(0, length);
		return new SyntaxProblem(offset, Math.max(0, length), lines.line(offset), lines.column(offset), lines.line(end),
				lines.column(end), message, code);
	}
}
