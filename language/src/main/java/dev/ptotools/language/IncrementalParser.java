package dev.ptotools.language;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.language.python.PythonFactory;
import dev.ptotools.language.python.SourceFile;
import dev.ptotools.language.python.Statement;
import dev.ptotools.language.source.LineMap;

/**
 * Parses successive versions of one document, parsing again only the top-level statements whose text
 * changed ({@link TopLevelChunks}); the others keep their syntax tree from the version before. A
 * top-level statement parses the same on its own as inside its file (the layout starts each one in
 * column 0 with no bracket open, and the parser is back in its top-level loop), so the result equals
 * {@link PythonFrontEnd#parse(String)}'s: same tree shapes, spans, problems. From the first statement
 * with a syntax problem to the end, the text is parsed as one piece, because the parser's recovery and
 * CPython's one-error rule reach across statements; a text that cannot be cut (a bracket or string open
 * at its end) is parsed whole. IncrementalAnalysisTest compares both after every step of edit sequences.
 * <p>
 * Not thread-safe: one instance per document, used from one thread at a time. A version's tree is
 * taken apart to build the next one's, so only the newest {@link ParsedFile} it returned may still be
 * read (the language server reads each version's tree only while it analyzes that version).
 */
public final class IncrementalParser {

	/** A top-level statement (or a line of several) as parsed on its own. */
	private record Piece(List<Statement> statements, ParsedFile file) {
	}

	/** A line named in a message ("expected an indented block after 'if' statement on line 3"). */
	private static final java.util.regex.Pattern LINE_REFERENCE = java.util.regex.Pattern.compile("\\bon line (\\d+)");

	private final PythonFrontEnd frontEnd;
	/** The previous version's pieces by their text (a text may occur more than once). */
	private Map<String, ArrayDeque<Piece>> previous = Map.of();
	/** The previous version's tree, emptied when the next one takes its statements. */
	private SourceFile last;
	private int reused;
	private int parsed;
	private boolean composed;

	public IncrementalParser(PythonFrontEnd frontEnd) {
		this.frontEnd = frontEnd;
	}

	/** Parses a version of the document; runs on a deep stack like {@link PythonFrontEnd#parse(String)}. */
	public ParsedFile parse(String text) {
		return DeepStack.call(() -> parseHere(text));
	}

	/**
	 * What the last parse did: how many top-level pieces it took from the version before, how many it
	 * parsed, and 1 if it built the file from pieces (0: it parsed the whole text).
	 */
	public int[] lastCounts() {
		return new int[] { reused, parsed, composed ? 1 : 0 };
	}

	private ParsedFile parseHere(String text) {
		int[] starts = TopLevelChunks.starts(text);
		composed = false;
		if (starts == null || starts.length < 2) {
			// the previous version's pieces stay for the next version (a bracket being typed gets closed)
			reused = 0;
			parsed = 1;
			return frontEnd.parseOnThisThread(text);
		}
		Map<String, ArrayDeque<Piece>> next = new HashMap<>(starts.length * 2);
		List<Piece> pieces = new ArrayList<>(starts.length);
		reused = 0;
		parsed = 0;
		for (int k = 0; k < starts.length; k++) {
			boolean lastPiece = k + 1 == starts.length;
			String pieceText = pieceText(text, starts, k);
			Piece piece = take(previous, pieceText);
			if (piece == null) {
				piece = parsePiece(pieceText);
			}
			if (piece.file().hasProblems() && !lastPiece) {
				// The parser's recovery and CPython's one-error rule reach past a broken statement: from here
				// on, the text is parsed as one piece (its start is a clean top-level state, which is all a
				// parse of the statements before leaves). The pieces after it stay for the next version.
				keep(next, pieceText, piece);
				for (int j = k + 1; j < starts.length; j++) {
					String later = pieceText(text, starts, j);
					Piece kept = poll(previous, later);
					if (kept != null) {
						keep(next, later, kept);
					}
				}
				String rest = text.substring(starts[k]);
				piece = take(previous, rest);
				if (piece == null) {
					piece = parsePiece(rest);
				}
				keep(next, rest, piece);
				pieces.add(piece);
				starts = java.util.Arrays.copyOf(starts, k + 1);
				break;
			}
			pieces.add(piece);
			keep(next, pieceText, piece);
		}
		previous = next;
		ParsedFile lastParsed = pieces.get(pieces.size() - 1).file();
		if (lastParsed.hasProblems() && lastParsed.rootNode() == null) {
			return frontEnd.parseOnThisThread(text); // too deep to parse: a whole parse says so for the file
		}
		LineMap lines = LineMap.of(text);
		List<SyntaxProblem> problems = problems(lines, pieces, starts);
		composed = true;
		SourceFile file = PythonFactory.eINSTANCE.createSourceFile();
		List<SpanIndex> indexes = new ArrayList<>(pieces.size());
		List<org.eclipse.xtext.nodemodel.ICompositeNode> roots = new ArrayList<>(pieces.size());
		List<Statement> body = new ArrayList<>();
		for (Piece p : pieces) {
			body.addAll(p.statements());
			indexes.add(p.file().spans());
			roots.add(p.file().rootNode());
		}
		if (last != null) {
			last.getBody().clear();
		}
		// moves each statement out of the piece's own file (or the previous version's, emptied above)
		file.getBody().addAll(body);
		last = file;
		return new ParsedFile(text, file, null, problems, lines, SpanIndex.concat(indexes, starts, roots));
	}

	private Piece parsePiece(String pieceText) {
		ParsedFile f = frontEnd.parseOnThisThread(pieceText);
		parsed++;
		if (!f.hasProblems()) {
			// A clean piece is read through its span index alone (node-model lookups are for broken text),
			// so its node model, twice the size of its tree, is let go: it was most of what the cache held.
			for (org.eclipse.emf.ecore.EObject o : f.spans().objects()) {
				o.eAdapters().removeIf(a -> a instanceof org.eclipse.xtext.nodemodel.INode);
			}
			f = new ParsedFile(f.text(), f.ast(), null, f.problems(), f.lines(), f.spans());
		}
		return new Piece(List.copyOf(f.ast().getBody()), f);
	}

	private static String pieceText(String text, int[] starts, int k) {
		return text.substring(starts[k], k + 1 == starts.length ? text.length() : starts[k + 1]);
	}

	/** A piece of the version before with this text, counted as reused. */
	private Piece take(Map<String, ArrayDeque<Piece>> pieces, String pieceText) {
		Piece piece = poll(pieces, pieceText);
		if (piece != null) {
			reused++;
		}
		return piece;
	}

	private static Piece poll(Map<String, ArrayDeque<Piece>> pieces, String pieceText) {
		ArrayDeque<Piece> same = pieces.get(pieceText);
		return same == null ? null : same.poll();
	}

	private static void keep(Map<String, ArrayDeque<Piece>> pieces, String pieceText, Piece piece) {
		pieces.computeIfAbsent(pieceText, t -> new ArrayDeque<>(1)).add(piece);
	}

	/**
	 * The pieces' syntax problems placed in the whole text, as a whole parse reports them. Only the last
	 * piece can have any (see parseHere), so the rest of a whole parse's rules hold within it.
	 */
	private static List<SyntaxProblem> problems(LineMap lines, List<Piece> pieces, int[] starts) {
		List<SyntaxProblem> out = new ArrayList<>();
		for (int k = 0; k < pieces.size(); k++) {
			for (SyntaxProblem s : pieces.get(k).file().problems()) {
				int linesBefore = lines.line(starts[k]) - 1;
				String message = LINE_REFERENCE.matcher(s.message())
						.replaceAll(m -> "on line " + (Integer.parseInt(m.group(1)) + linesBefore));
				out.add(PythonFrontEnd.problem(lines, starts[k] + s.offset(), s.length(), message, s.code()));
			}
		}
		return List.copyOf(out);
	}
}
