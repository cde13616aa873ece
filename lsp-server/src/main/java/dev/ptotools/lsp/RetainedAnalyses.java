package dev.ptotools.lsp;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which open documents keep their whole analysis: the {@link #CAPACITY} used last (opened, edited, or
 * asked about). The analysis (the lowered module and its facts) is most of what the server holds for a
 * document; the others keep their text and findings, which is all that publishing, carrying findings to
 * the next edit ({@code UnitReanalysis}) and the workspace's symbols read, and a request on one of them
 * analyzes it again (tens of milliseconds for a 2,000-line module).
 *
 * <p>The same trade as clangd's retained ASTs and rust-analyzer's LRU of parse trees: memory follows the
 * documents in use, not the documents open. With pypto's 132 test programs open, the analyses alone
 * held 74 MB (bench/run.sh's memory row).
 */
final class RetainedAnalyses {

	/**
	 * How many documents keep their analysis. Editors show a handful at once; a document switched to
	 * after eight others costs one analysis on its first request.
	 */
	static final int CAPACITY = 8;

	private final int capacity;
	/** The documents in use, the one used last at the end. */
	private final LinkedHashMap<OpenDocument, Boolean> inUse = new LinkedHashMap<>(16, 0.75f, true);

	RetainedAnalyses() {
		this(CAPACITY);
	}

	RetainedAnalyses(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity " + capacity);
		}
		this.capacity = capacity;
	}

	/** Marks a document as used now; the one used longest ago beyond the capacity lets its analysis go. */
	void use(OpenDocument doc) {
		OpenDocument dropped = null;
		synchronized (this) {
			inUse.put(doc, Boolean.TRUE);
			if (inUse.size() > capacity) {
				Map.Entry<OpenDocument, Boolean> eldest = inUse.entrySet().iterator().next();
				dropped = eldest.getKey();
				inUse.remove(dropped);
			}
		}
		if (dropped != null) {
			// outside this lock: the document's own lock is taken by analyses offering results meanwhile
			dropped.dropAnalysis();
		}
	}

	/** Whether a document's analysis is kept once offered (without counting as a use). */
	synchronized boolean retains(OpenDocument doc) {
		return inUse.containsKey(doc);
	}

	/** Forgets a closed document. */
	synchronized void closed(OpenDocument doc) {
		inUse.remove(doc);
	}
}
