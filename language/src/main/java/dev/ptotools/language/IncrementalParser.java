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
 * column 0 with no bracket open), so the result equals {@link PythonFrontEnd#parse(String)}'s for
 * every text it handles this way; a text with a syntax problem anywhere, or one it cannot cut, is
 * parsed whole, because the parser's recovery and CPython's one-error rule work across statements.
 * <p>
 * Not thread-safe: one instance per document, used from one thread at a time. A version's tree is
 * taken apart to build the next one's, so only the newest {@link ParsedFile} it returned may still be
 * read (the language server reads each version's tree only while it analyzes that version).
 */
public final class IncrementalParser {

	/** A top-level statement (or a line of several) as parsed on its own. */
	private record Piece(List<Statement> statements, SpanIndex spans, boolean problems) {
	}

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
		boolean problems = false;
		reused = 0;
		parsed = 0;
		for (int k = 0; k < starts.length; k++) {
			String pieceText = text.substring(starts[k], k + 1 < starts.length ? starts[k + 1] : text.length());
			ArrayDeque<Piece> same = previous.get(pieceText);
			Piece piece = same == null ? null : same.poll();
			if (piece == null) {
				ParsedFile f = frontEnd.parseOnThisThread(pieceText);
				piece = new Piece(List.copyOf(f.ast().getBody()), f.spans(), f.hasProblems());
				parsed++;
			} else {
				reused++;
			}
			problems |= piece.problems();
			pieces.add(piece);
			next.computeIfAbsent(pieceText, t -> new ArrayDeque<>(1)).add(piece);
		}
		previous = next;
		if (problems) {
			// kept for the next version, which may have the problem fixed
			return frontEnd.parseOnThisThread(text);
		}
		composed = true;
		SourceFile file = PythonFactory.eINSTANCE.createSourceFile();
		List<SpanIndex> indexes = new ArrayList<>(pieces.size());
		List<List<Statement>> tops = new ArrayList<>(pieces.size());
		List<Statement> body = new ArrayList<>();
		for (Piece p : pieces) {
			body.addAll(p.statements());
			indexes.add(p.spans());
			tops.add(p.statements());
		}
		if (last != null) {
			last.getBody().clear();
		}
		// moves each statement out of the piece's own file (or the previous version's, emptied above)
		file.getBody().addAll(body);
		last = file;
		return new ParsedFile(text, file, null, List.of(), LineMap.of(text),
				SpanIndex.concat(indexes, starts, tops));
	}
}
