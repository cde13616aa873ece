package dev.ptotools.codegen.ir;

import java.util.concurrent.atomic.AtomicLong;

import dev.ptotools.analyzer.ir.Span;

/**
 * A variable, compared by identity like pypto's {@code Var}: the name is a hint (two Vars may share
 * one; SSA renaming gives each definition its own Var). The id orders Vars by creation, as pypto's
 * {@code UniqueId} does, for the passes that need a deterministic order over sets of Vars.
 */
public sealed class Var implements Expr permits IterArg {

	private static final AtomicLong NEXT_ID = new AtomicLong();

	private final String name;
	private final Type type;
	private final Span span;
	private final long id = NEXT_ID.getAndIncrement();

	public Var(String name, Type type, Span span) {
		this.name = name;
		this.type = type;
		this.span = span == null ? Span.NONE : span;
	}

	public Var(String name, Type type) {
		this(name, type, Span.NONE);
	}

	/** The name hint, as pypto's printer and codegen print it. */
	public String name() {
		return name;
	}

	@Override
	public Type type() {
		return type;
	}

	@Override
	public Span span() {
		return span;
	}

	public long id() {
		return id;
	}

	/** A new Var with this one's type and span under another name. */
	public Var renamed(String newName) {
		return new Var(newName, type, span);
	}

	/** A new Var with this one's name and span and another type. */
	public Var retyped(Type newType) {
		return new Var(name, newType, span);
	}

	@Override
	public final boolean equals(Object o) {
		return this == o;
	}

	@Override
	public final int hashCode() {
		return Long.hashCode(id);
	}

	@Override
	public String toString() {
		return name;
	}
}
