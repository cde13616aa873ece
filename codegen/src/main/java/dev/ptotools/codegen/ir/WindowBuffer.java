package dev.ptotools.codegen.ir;

import dev.ptotools.analyzer.ir.Span;

/**
 * A per-rank window-buffer allocation carved out of a comm domain (pypto's {@code WindowBuffer}): built by
 * MaterializeCommDomainScopes from a {@code pld.tensor.alloc_window_buffer} assignment. Its name is the
 * allocation's variable name after SSA ({@code data_buf__ssa_v0}), which is the name host_orch.py gives the
 * buffer; {@code size} is the per-rank size in bytes (a constant or an expression of {@code world_size}).
 * A window view's {@link Type.Tensor#window()} names the buffer it is bound to.
 *
 * @param base the allocation's variable (pypto's {@code base_}: the allocation identity)
 * @param rebuilt whether a mutator rebuilt this slot after the views were typed: pypto's IRMutator makes a
 *        fresh WindowBuffer when a slot's size changes (Simplify after MaterializeCommDomainScopes), while the
 *        views' DistributedTensor types keep pointing at the old one, so codegen finds no scope for them
 */
public record WindowBuffer(Var base, Expr size, boolean loadFromHost, boolean storeToHost, Span span, boolean rebuilt) {

	public WindowBuffer(Var base, Expr size, boolean loadFromHost, boolean storeToHost, Span span) {
		this(base, size, loadFromHost, storeToHost, span, false);
	}

	public WindowBuffer(Var base, Expr size, Span span) {
		this(base, size, false, false, span);
	}

	/** pypto's {@code name_hint_}: the base variable's name. */
	public String name() {
		return base.name();
	}

	public WindowBuffer withSize(Expr newSize) {
		return new WindowBuffer(base, newSize, loadFromHost, storeToHost, span, rebuilt);
	}

	/** The fresh slot a mutator makes when the size changes (see {@code rebuilt}). */
	public WindowBuffer rebuiltWithSize(Expr newSize) {
		return new WindowBuffer(base, newSize, loadFromHost, storeToHost, span, true);
	}
}
