package dev.ptotools.language;

import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.nodemodel.ICompositeNode;
import org.eclipse.xtext.nodemodel.ILeafNode;
import org.eclipse.xtext.nodemodel.INode;
import org.eclipse.xtext.nodemodel.util.NodeModelUtils;

/**
 * Exact source spans of AST objects: from the first to the last real token of the object, leaving out
 * comments, whitespace, the NEWLINE that ends a logical line and the zero-length layout tokens
 * (INDENT, DEDENT, the NEWLINE at end of file) that Xtext's own offsets include.
 */
public final class Spans {

	/** A half-open range [offset, offset + length) of the text. */
	public record Span(int offset, int length) {
		public int end() {
			return offset + length;
		}

		public boolean contains(int o) {
			return o >= offset && o <= offset + length;
		}
	}

	private Spans() {
	}

	/** The span of an AST object, or null for an object without a node (not from a parse). */
	public static Span of(EObject object) {
		INode node = NodeModelUtils.getNode(object);
		return node == null ? null : of(node);
	}

	public static Span of(INode node) {
		ILeafNode first = firstLeaf(node);
		if (first == null) {
			return new Span(node.getOffset(), 0);
		}
		ILeafNode last = lastLeaf(node);
		return new Span(first.getTotalOffset(), last.getTotalEndOffset() - first.getTotalOffset());
	}

	static boolean real(ILeafNode leaf) {
		int length = leaf.getTotalLength();
		if (length == 0 || length > 2 || leaf.isHidden()) {
			return length > 2 && !leaf.isHidden();
		}
		// A NEWLINE token ends a logical line; it belongs to no statement's text. Only one- and
		// two-character tokens can be one, so only they pay for reading their text.
		char c = leaf.getText().charAt(0);
		return c != '\n' && c != '\r';
	}

	static ILeafNode firstLeaf(INode node) {
		if (node instanceof ILeafNode leaf) {
			return real(leaf) ? leaf : null;
		}
		for (INode child = ((ICompositeNode) node).getFirstChild(); child != null; child = child.getNextSibling()) {
			ILeafNode found = firstLeaf(child);
			if (found != null) {
				return found;
			}
		}
		return null;
	}

	static ILeafNode lastLeaf(INode node) {
		if (node instanceof ILeafNode leaf) {
			return real(leaf) ? leaf : null;
		}
		ICompositeNode composite = (ICompositeNode) node;
		INode child = composite.getLastChild();
		while (child != null) {
			ILeafNode found = lastLeaf(child);
			if (found != null) {
				return found;
			}
			child = child.hasPreviousSibling() ? child.getPreviousSibling() : null;
		}
		return null;
	}
}
