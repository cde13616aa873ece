package dev.ptotools.language;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.nodemodel.ILeafNode;
import org.eclipse.xtext.nodemodel.SyntaxErrorMessage;
import org.eclipse.xtext.nodemodel.impl.NodeModelBuilder;

import dev.ptotools.language.syntax.PythonSyntaxChecks;

/**
 * Xtext's node model builder, noting the {@link SpanIndex} of the parse while it builds the nodes: the
 * parser hands every leaf and every composite to the builder in order, while they are still in the
 * cache, where a walk over the finished node model afterwards (millions of nodes for the standard
 * library) pays a cache miss for most of them.
 * <p>
 * One frame per open composite holds the [first, end] of its real leaves ({@link Spans}) and the
 * offset of its first leaf of any kind; a composite's frame is folded into its parent's when the parser
 * closes it ({@link #compressAndReturnParent}), which is where an AST object's span is final. The spans
 * are those {@link SpanIndex#of(ICompositeNode)} computes from the finished tree, and the objects come
 * in the same order (children before parents); {@link #spans()} gives null whenever that cannot be
 * vouched for (the builder saw an unbalanced sequence, for example after a parse that threw), and the
 * caller then walks the tree.
 */
public final class SpanTrackingNodeModelBuilder extends NodeModelBuilder {

	private String text = "";
	private int[] starts = new int[64];
	private int[] ends = new int[64];
	private int[] firsts = new int[64];
	private int sp = -1;
	private boolean broken;

	private IdentityLongMap spans;
	private List<EObject> objects;
	private List<EObject> checked;
	/** Objects whose node has no leaf at all: their offset is that of the next leaf to come. */
	private final List<EObject> pending = new ArrayList<>();
	private int lastLeafEnd;

	@Override
	public ICompositeNode newRootNode(String input) {
		text = input;
		spans = new IdentityLongMap(Math.max(16, input.length() / 4));
		objects = new ArrayList<>(Math.max(16, input.length() / 8));
		checked = new ArrayList<>();
		pending.clear();
		lastLeafEnd = 0;
		sp = -1;
		broken = false;
		push();
		return super.newRootNode(input);
	}

	@Override
	public ICompositeNode newCompositeNode(EObject grammarElement, int lookahead, ICompositeNode parent) {
		ICompositeNode node = super.newCompositeNode(grammarElement, lookahead, parent);
		push();
		return node;
	}

	@Override
	public ICompositeNode newCompositeNodeAsParentOf(EObject grammarElement, int lookahead, ICompositeNode existing) {
		// The new composite takes the place of the open one, which becomes its first child and is closed
		// (the super call compresses it): its frame goes under the open one's.
		if (sp < 0) {
			broken = true;
		} else {
			push();
			starts[sp] = starts[sp - 1];
			ends[sp] = ends[sp - 1];
			firsts[sp] = firsts[sp - 1];
			starts[sp - 1] = -1;
			ends[sp - 1] = -1;
			firsts[sp - 1] = -1;
		}
		return super.newCompositeNodeAsParentOf(grammarElement, lookahead, existing);
	}

	@Override
	public ILeafNode newLeafNode(int offset, int length, EObject grammarElement, boolean isHidden,
			SyntaxErrorMessage errorMessage, ICompositeNode parent) {
		ILeafNode leaf = super.newLeafNode(offset, length, grammarElement, isHidden, errorMessage, parent);
		if (!pending.isEmpty()) {
			long packed = pack(offset, offset);
			for (EObject o : pending) {
				spans.replace(o, packed);
			}
			pending.clear();
		}
		lastLeafEnd = offset + length;
		if (sp < 0) {
			broken = true;
			return leaf;
		}
		if (firsts[sp] < 0) {
			firsts[sp] = offset;
		}
		if (length > 0 && !isHidden && (length > 2 || !lineBreak(text.charAt(offset)))) {
			if (starts[sp] < 0) {
				starts[sp] = offset;
			}
			ends[sp] = offset + length;
		}
		return leaf;
	}

	@Override
	public ICompositeNode compressAndReturnParent(ICompositeNode compositeNode) {
		if (sp < 0) {
			broken = true;
		} else {
			int start = starts[sp];
			int end = ends[sp];
			int first = firsts[sp];
			sp--;
			if (compositeNode.hasDirectSemanticElement()) {
				EObject element = compositeNode.getSemanticElement();
				if (start >= 0) {
					note(element, pack(start, end));
				} else if (first >= 0) {
					note(element, pack(first, first));
				} else if (note(element, pack(lastLeafEnd, lastLeafEnd))) {
					// no leaf under it: Xtext's offset of such a node is that of the next leaf, or the end of
					// the last one when none follows
					pending.add(element);
				}
			}
			if (sp >= 0) {
				if (start >= 0) {
					if (starts[sp] < 0) {
						starts[sp] = start;
					}
					ends[sp] = end;
				}
				if (first >= 0 && firsts[sp] < 0) {
					firsts[sp] = first;
				}
			}
		}
		return super.compressAndReturnParent(compositeNode);
	}

	/**
	 * The spans of the parse that just ran, or null when they are not known to be those a walk over its
	 * finished tree would give: call once the parse is over, and only for a parse without syntax errors.
	 */
	public SpanIndex spans() {
		// Left open at the end: the root's frame alone (the entry rule's node, which the root takes over, is closed).
		if (broken || spans == null || sp != 0) {
			return null;
		}
		return SpanIndex.of(spans, objects);
	}

	/**
	 * The objects of {@link #spans()} that {@link PythonSyntaxChecks} looks at, in the same order: picked
	 * out while they are in the cache too.
	 */
	public List<EObject> syntaxCheckObjects() {
		return checked;
	}

	private boolean note(EObject element, long packed) {
		if (spans.putIfAbsent(element, packed)) {
			objects.add(element);
			if (PythonSyntaxChecks.looksAt(element)) {
				checked.add(element);
			}
			return true;
		}
		return false;
	}

	private void push() {
		if (++sp == starts.length) {
			int n = sp * 2;
			starts = Arrays.copyOf(starts, n);
			ends = Arrays.copyOf(ends, n);
			firsts = Arrays.copyOf(firsts, n);
		}
		starts[sp] = -1;
		ends[sp] = -1;
		firsts[sp] = -1;
	}

	private static boolean lineBreak(char c) {
		return c == '\n' || c == '\r';
	}

	private static long pack(int start, int end) {
		return ((long) start << 32) | (end & 0xffffffffL);
	}
}
