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
 * {@link PythonFrontEnd#parse(String)}'s: same tree shapes, spans, problems. A broken statement is
 * parsed with its neighbours, since the parser's recovery and CPython's one-error rule reach around it
 * (see parseHere); a text that cannot be cut (a string open at its end, say) is parsed whole.
 * IncrementalAnalysisTest compares both after every step of edit sequences.
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
			if (piece.file().hasProblems()) {
				// The parser's recovery reaches around a broken statement: its error nodes hang on the statement
				// before when that one's rule is still open (a stray line in column 0 under a def), and past
				// it, CPython's one-error rule too. So the statement before goes with it; and when a parse of
				// the two with the statement after shows the parser back in its top-level loop there, and every
				// later statement parses clean on its own, the rest is what it would be in a whole parse.
				// Otherwise, from the statement before on, the text is parsed as one piece (its start is a
				// clean top-level state, which is all a parse of the statements before leaves).
				int from = Math.max(0, k - 1);
				if (from < k) {
					pieces.remove(pieces.size() - 1);
				}
				Resync resync = lastPiece ? null : resynced(text, starts, from, k, next);
				if (resync != null) {
					// the statements from `from` to the one after the broken one are one piece now
					int[] merged = new int[starts.length - (k + 1 - from)];
					System.arraycopy(starts, 0, merged, 0, from + 1);
					System.arraycopy(starts, k + 2, merged, from + 1, starts.length - k - 2);
					starts = merged;
					pieces.add(resync.both());
					keep(next, pieceText(text, starts, from), resync.both());
					for (int j = 0; j < resync.rest().size(); j++) {
						pieces.add(resync.rest().get(j));
						keep(next, pieceText(text, starts, from + 1 + j), resync.rest().get(j));
					}
					reused += resync.reusedPieces();
					break;
				}
				keep(next, pieceText, piece);
				for (int j = k + 1; j < starts.length; j++) {
					String later = pieceText(text, starts, j);
					Piece kept = poll(previous, later);
					if (kept != null) {
						keep(next, later, kept);
					}
				}
				String rest = text.substring(starts[from]);
				piece = take(previous, rest);
				if (piece == null) {
					piece = parsePiece(rest);
				}
				keep(next, rest, piece);
				pieces.add(piece);
				starts = java.util.Arrays.copyOf(starts, from + 1);
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

	/** A broken statement with its neighbours parsed as one piece, and the pieces of the statements after those. */
	private record Resync(Piece both, List<Piece> rest, int reusedPieces) {
	}

	/**
	 * The statements from {@code from} to the broken one k and the statement after it parsed as one piece,
	 * when that parse ends in the
	 * parser's top-level loop at the second statement (its problems all in the first, its statements from
	 * there those of the second parsed alone, offsets and all) and every statement after the two parses
	 * clean on its own: then the parser meets the rest of the text in the state a parse of the rest alone
	 * starts in, and a whole parse gives the same. Null otherwise; the pieces of the version before it
	 * looked at are then kept in {@code next} for the version after.
	 */
	private Resync resynced(String text, int[] starts, int from, int k, Map<String, ArrayDeque<Piece>> next) {
		List<Piece> rest = new ArrayList<>();
		int fromBefore = 0;
		Piece second = null;
		boolean clean = true;
		for (int j = k + 1; j < starts.length && clean; j++) {
			String later = pieceText(text, starts, j);
			Piece p = poll(previous, later);
			if (p != null) {
				fromBefore++;
				keep(next, later, p);
			} else {
				p = parsePiece(later);
			}
			clean = !p.file().hasProblems();
			if (j == k + 1) {
				second = p;
			} else {
				rest.add(p);
			}
		}
		if (!clean) {
			return null;
		}
		String first = text.substring(starts[from], starts[k + 1]);
		Piece both = parsePiece(first + pieceText(text, starts, k + 1));
		if (both.file().rootNode() == null) {
			return null;
		}
		for (SyntaxProblem problem : both.file().problems()) {
			if (problem.offset() + problem.length() > first.length()) {
				return null;
			}
		}
		List<Statement> tail = new ArrayList<>();
		for (Statement st : both.statements()) {
			Spans.Span span = both.file().spans().of(st);
			if (span != null && span.offset() >= first.length()) {
				tail.add(st);
			} else if (!tail.isEmpty()) {
				return null;
			}
		}
		if (tail.size() != second.statements().size()) {
			return null;
		}
		for (int i = 0; i < tail.size(); i++) {
			Statement alone = second.statements().get(i);
			Spans.Span a = both.file().spans().of(tail.get(i));
			Spans.Span b = second.file().spans().of(alone);
			if (a == null || b == null || a.offset() != b.offset() + first.length() || a.length() != b.length()
					|| tail.get(i).eClass() != alone.eClass()) {
				return null;
			}
		}
		// the later pieces go into the file, not to the next version a second time
		for (int j = k + 2; j < starts.length; j++) {
			String later = pieceText(text, starts, j);
			ArrayDeque<Piece> kept = next.get(later);
			if (kept != null) {
				kept.remove(rest.get(j - k - 2));
			}
		}
		return new Resync(both, rest, fromBefore);
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
