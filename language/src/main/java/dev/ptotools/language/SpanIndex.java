package dev.ptotools.language;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.nodemodel.ILeafNode;
import org.eclipse.xtext.nodemodel.INode;

/**
 * The exact span ({@link Spans}) of every AST object of a parse, computed in one post-order walk
 * of the node model instead of one leftmost/rightmost descent per object: lowering asks for the span
 * of every node, and the descents made it quadratic in nesting depth.
 */
public final class SpanIndex {

	private final IdentityLongMap spans;
	private final List<EObject> objects;
	/** For an index of pieces parsed apart: each top-level statement's piece offset; else null. */
	private final Map<EObject, Integer> pieceBases;
	/** For an index of pieces parsed apart: each piece's node model and where the piece starts. */
	private final List<ICompositeNode> pieceRoots;
	private final int[] pieceStarts;

	private SpanIndex(IdentityLongMap spans, List<EObject> objects, Map<EObject, Integer> pieceBases,
			List<ICompositeNode> pieceRoots, int[] pieceStarts) {
		this.spans = spans;
		this.objects = objects;
		this.pieceBases = pieceBases;
		this.pieceRoots = pieceRoots;
		this.pieceStarts = pieceStarts;
	}

	/**
	 * The index of a text made of pieces parsed apart ({@link IncrementalParser}): each piece's spans
	 * moved by the offset where the piece starts. {@code tops.get(k)} are the top-level statements of
	 * piece k, whose objects without an indexed span are placed from their own nodes and that offset.
	 */
	static SpanIndex concat(List<SpanIndex> pieces, int[] bases, List<? extends List<? extends EObject>> tops,
			List<ICompositeNode> roots) {
		int size = 0;
		int count = 0;
		for (SpanIndex p : pieces) {
			size += p.spans.size();
			count += p.objects.size();
		}
		IdentityLongMap spans = new IdentityLongMap(size);
		List<EObject> objects = new ArrayList<>(count);
		Map<EObject, Integer> pieceBases = new IdentityHashMap<>();
		for (int k = 0; k < pieces.size(); k++) {
			long shift = bases[k];
			long both = (shift << 32) + shift;
			pieces.get(k).spans.forEach((key, packed) -> spans.putIfAbsent(key, packed + both));
			objects.addAll(pieces.get(k).objects);
			for (EObject top : tops.get(k)) {
				pieceBases.put(top, bases[k]);
			}
		}
		return new SpanIndex(spans, objects, pieceBases, List.copyOf(roots), bases.clone());
	}

	public static SpanIndex of(ICompositeNode root) {
		if (root == null) {
			return new SpanIndex(new IdentityLongMap(16), List.of(), null, null, null);
		}
		// One AST object per 12 characters of the standard library, per 5 of dense PyPTO code: sized for
		// the dense case so that the map does not rehash while it fills.
		IdentityLongMap spans = new IdentityLongMap(Math.max(16, root.getTotalLength() / 4));
		List<EObject> objects = new ArrayList<>(Math.max(16, root.getTotalLength() / 8));
		// Iterative post-order: each frame is a composite and the [first, end] of its real leaves so far.
		ArrayList<Frame> stack = new ArrayList<>();
		stack.add(new Frame(root));
		while (!stack.isEmpty()) {
			Frame top = stack.get(stack.size() - 1);
			if (top.next != null) {
				INode child = top.next;
				top.next = child.hasNextSibling() ? child.getNextSibling() : null;
				if (child instanceof ICompositeNode c) {
					stack.add(new Frame(c));
				} else {
					ILeafNode leaf = (ILeafNode) child;
					if (Spans.real(leaf)) {
						top.include(leaf.getTotalOffset(), leaf.getTotalEndOffset());
					}
				}
				continue;
			}
			stack.remove(stack.size() - 1);
			if (top.node.hasDirectSemanticElement()) {
				int start = top.start >= 0 ? top.start : top.node.getTotalOffset();
				int end = top.start >= 0 ? top.end : start;
				EObject element = top.node.getSemanticElement();
				if (spans.putIfAbsent(element, ((long) start << 32) | (end & 0xffffffffL))) {
					objects.add(element);
				}
			}
			if (!stack.isEmpty() && top.start >= 0) {
				stack.get(stack.size() - 1).include(top.start, top.end);
			}
		}
		return new SpanIndex(spans, objects, null, null, null);
	}

	/**
	 * Every AST object of the parse, children before parents: a walk over the tree that costs no EMF
	 * content iteration (which is what an eAllContents walk spends most of its time on).
	 */
	public List<EObject> objects() {
		return objects;
	}

	/** The span of an object of this parse, or null for an object without a node. */
	public Spans.Span of(EObject object) {
		long packed = spans.get(object);
		if (packed == IdentityLongMap.ABSENT) {
			return object == null ? null : unindexed(object);
		}
		int start = (int) (packed >>> 32);
		int end = (int) packed;
		return new Spans.Span(start, end - start);
	}

	/**
	 * The node models of an index of pieces parsed apart, each with the offset where its piece starts
	 * (node offsets are relative to it); empty for a whole parse, whose node model the file holds.
	 */
	public List<PieceRoot> pieceRoots() {
		if (pieceRoots == null) {
			return List.of();
		}
		List<PieceRoot> out = new ArrayList<>(pieceRoots.size());
		for (int k = 0; k < pieceRoots.size(); k++) {
			out.add(new PieceRoot(pieceRoots.get(k), pieceStarts[k]));
		}
		return out;
	}

	/** A piece's node model and the offset of the piece in the file. */
	public record PieceRoot(ICompositeNode root, int start) {
	}

	private Spans.Span unindexed(EObject object) {
		Spans.Span own = Spans.of(object);
		if (pieceBases == null || own == null) {
			return own;
		}
		for (EObject o = object; o != null; o = o.eContainer()) {
			Integer base = pieceBases.get(o);
			if (base != null) {
				return new Spans.Span(own.offset() + base, own.length());
			}
		}
		return own;
	}

	private static final class Frame {
		final ICompositeNode node;
		INode next;
		int start = -1;
		int end = -1;

		Frame(ICompositeNode node) {
			this.node = node;
			this.next = node.getFirstChild();
		}

		void include(int s, int e) {
			if (start < 0) {
				start = s;
			}
			end = e;
		}
	}
}
