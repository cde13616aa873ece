package dev.ptotools.language;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.nodemodel.ILeafNode;
import org.eclipse.xtext.nodemodel.INode;
import org.eclipse.xtext.nodemodel.impl.AbstractNode;
import org.eclipse.xtext.nodemodel.impl.CompositeNode;
import org.eclipse.xtext.nodemodel.util.NodeModelUtils;

/**
 * The exact span ({@link Spans}) of every AST object of a parse, computed in one post-order walk
 * of the node model instead of one leftmost/rightmost descent per object: lowering asks for the span
 * of every node, and the descents made it quadratic in nesting depth.
 */
public final class SpanIndex {

	private final IdentityLongMap spans;
	private final List<EObject> objects;
	/**
	 * For an index of pieces parsed apart: the node models the pieces still have, each with the offset
	 * where its piece starts; else null.
	 */
	private final List<PieceRoot> pieceRoots;
	/**
	 * The offsets of the nodes the parser's recovery marked with a syntax error, found on the walk that
	 * made the index (none when the parser did not have to repair anything), in the file's offsets.
	 */
	private final int[] syntaxErrorOffsets;

	private SpanIndex(IdentityLongMap spans, List<EObject> objects, List<PieceRoot> pieceRoots,
			int[] syntaxErrorOffsets) {
		this.spans = spans;
		this.objects = objects;
		this.pieceRoots = pieceRoots;
		this.syntaxErrorOffsets = syntaxErrorOffsets;
	}

	/**
	 * The index of a text made of pieces parsed apart ({@link IncrementalParser}): each piece's spans
	 * moved by the offset where the piece starts; {@code roots.get(k)} is piece k's node model, or null
	 * when the piece let it go.
	 */
	static SpanIndex concat(List<SpanIndex> pieces, int[] bases, List<ICompositeNode> roots) {
		int size = 0;
		int count = 0;
		for (SpanIndex p : pieces) {
			size += p.spans.size();
			count += p.objects.size();
		}
		IdentityLongMap spans = new IdentityLongMap(size);
		List<EObject> objects = new ArrayList<>(count);
		List<PieceRoot> kept = new ArrayList<>();
		int errors = 0;
		for (SpanIndex p : pieces) {
			errors += p.syntaxErrorOffsets.length;
		}
		int[] errorOffsets = new int[errors];
		errors = 0;
		for (int k = 0; k < pieces.size(); k++) {
			for (int at : pieces.get(k).syntaxErrorOffsets) {
				errorOffsets[errors++] = at + bases[k];
			}
			long shift = bases[k];
			long both = (shift << 32) + shift;
			pieces.get(k).spans.forEach((key, packed) -> spans.putIfAbsent(key, packed + both));
			objects.addAll(pieces.get(k).objects);
			if (roots.get(k) != null) {
				kept.add(new PieceRoot(roots.get(k), bases[k]));
			}
		}
		return new SpanIndex(spans, objects, List.copyOf(kept), errorOffsets);
	}

	/**
	 * An index {@link SpanTrackingNodeModelBuilder} filled while the parser built the nodes, of a parse
	 * the parser did not have to repair.
	 */
	static SpanIndex of(IdentityLongMap spans, List<EObject> objects) {
		return new SpanIndex(spans, objects, null, NO_ERRORS);
	}

	public static SpanIndex of(ICompositeNode root) {
		if (root == null) {
			return new SpanIndex(new IdentityLongMap(16), List.of(), null, NO_ERRORS);
		}
		// One AST object per 12 characters of the standard library, per 5 of dense PyPTO code: sized for
		// the dense case so that the map does not rehash while it fills.
		IdentityLongMap spans = new IdentityLongMap(Math.max(16, root.getTotalLength() / 4));
		List<EObject> objects = new ArrayList<>(Math.max(16, root.getTotalLength() / 8));
		ICompositeNode top = root.getRootNode();
		String text = top == null ? null : top.getText();
		// Iterative post-order over the nodes the parser made. Each frame is a composite, its next child and
		// the [start, end] of its real leaves so far, in parallel arrays. A composite that folds the rule
		// calls of an expression chain (Expression, Disjunction, ... Atom) is entered once, at its real
		// children: the synthetic node per folded rule call that getFirstChild() makes holds no AST object.
		ICompositeNode[] nodes = new ICompositeNode[64];
		INode[] next = new INode[64];
		int[] starts = new int[64];
		int[] ends = new int[64];
		int sp = 0;
		nodes[0] = root;
		next[0] = firstChild(root);
		starts[0] = -1;
		// the nodes the parser's recovery marked: ParseDamage needs them, and a walk of its own would cost
		// as much as this one
		int[] errors = NO_ERRORS;
		int errorCount = 0;
		if (root.getSyntaxErrorMessage() != null) {
			errors = new int[] { root.getOffset() };
			errorCount = 1;
		}
		while (sp >= 0) {
			INode child = next[sp];
			if (child != null) {
				next[sp] = child.hasNextSibling() ? child.getNextSibling() : null;
				if (child.getSyntaxErrorMessage() != null) {
					if (errorCount == errors.length) {
						errors = Arrays.copyOf(errors, Math.max(4, errorCount * 2));
					}
					errors[errorCount++] = child.getOffset();
				}
				if (child instanceof ICompositeNode c) {
					if (++sp == nodes.length) {
						int n = sp * 2;
						nodes = Arrays.copyOf(nodes, n);
						next = Arrays.copyOf(next, n);
						starts = Arrays.copyOf(starts, n);
						ends = Arrays.copyOf(ends, n);
					}
					nodes[sp] = c;
					next[sp] = firstChild(c);
					starts[sp] = -1;
				} else {
					ILeafNode leaf = (ILeafNode) child;
					if (real(leaf, text)) {
						if (starts[sp] < 0) {
							starts[sp] = leaf.getTotalOffset();
						}
						ends[sp] = leaf.getTotalEndOffset();
					}
				}
				continue;
			}
			ICompositeNode node = nodes[sp];
			int start = starts[sp];
			int end = ends[sp];
			nodes[sp] = null;
			sp--;
			if (node.hasDirectSemanticElement()) {
				int s = start >= 0 ? start : node.getTotalOffset();
				int e = start >= 0 ? end : s;
				EObject element = node.getSemanticElement();
				if (spans.putIfAbsent(element, ((long) s << 32) | (e & 0xffffffffL))) {
					objects.add(element);
				}
			}
			if (sp >= 0 && start >= 0) {
				if (starts[sp] < 0) {
					starts[sp] = start;
				}
				ends[sp] = end;
			}
		}
		return new SpanIndex(spans, objects, null, Arrays.copyOf(errors, errorCount));
	}

	/**
	 * The first child the parser made under a composite: past the synthetic nodes that stand for the
	 * rule calls it folded (its basic children are public; its getFirstChild() is the synthetic one).
	 */
	private static INode firstChild(ICompositeNode node) {
		if (node instanceof CompositeNode c) {
			Iterator<AbstractNode> it = c.basicGetChildren().iterator();
			return it.hasNext() ? it.next() : null;
		}
		return node.getFirstChild();
	}

	/** {@link Spans#real} with the text at hand: a one- or two-character leaf is read in place. */
	private static boolean real(ILeafNode leaf, String text) {
		if (text == null) {
			return Spans.real(leaf);
		}
		int length = leaf.getTotalLength();
		if (length == 0 || leaf.isHidden()) {
			return false;
		}
		if (length > 2) {
			return true;
		}
		char c = text.charAt(leaf.getTotalOffset());
		return c != '\n' && c != '\r';
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

	/** The offsets of the nodes the parser's recovery marked with a syntax error (see the field). */
	public int[] syntaxErrorOffsets() {
		return syntaxErrorOffsets.clone();
	}

	private static final int[] NO_ERRORS = new int[0];

	/**
	 * The node models of an index of pieces parsed apart, each with the offset where its piece starts
	 * (node offsets are relative to it), for the pieces that still have one (those with syntax problems);
	 * empty for a whole parse, whose node model the file holds.
	 */
	public List<PieceRoot> pieceRoots() {
		return pieceRoots == null ? List.of() : pieceRoots;
	}

	/** A piece's node model and the offset of the piece in the file. */
	public record PieceRoot(ICompositeNode root, int start) {
	}

	/** The span of an object the index does not hold, from its node (in a piece: plus the piece's offset). */
	private Spans.Span unindexed(EObject object) {
		INode node = NodeModelUtils.getNode(object);
		Spans.Span own = Spans.of(object);
		if (pieceRoots == null || own == null || node == null) {
			return own;
		}
		ICompositeNode root = node.getRootNode();
		for (PieceRoot piece : pieceRoots) {
			if (piece.root() == root) {
				return new Spans.Span(own.offset() + piece.start(), own.length());
			}
		}
		return own;
	}
}
