package dev.ptotools.analyzer.project;

import java.util.List;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Program;

/**
 * The opaque values lowering gives imported names ({@code Expr.Opaque} kinds): {@code import:<path>} for
 * {@code from <module> import <name>} (path = module, then the name: {@code ".config.BATCH"}),
 * {@code import-module:<module>} for {@code import <module> as x}, {@code import-star:<module>} for
 * {@code from <module> import *}, bound to the name {@code *}.
 */
public final class ImportKinds {

	public static final String FROM = "import:";
	public static final String MODULE = "import-module:";
	public static final String STAR = "import-star:";
	/** The binding name of a star import (no Python name can be it). */
	public static final String STAR_NAME = "*";

	private ImportKinds() {
	}

	/** The path of {@code from <module> import <name>}: {@code ".config.BATCH"}, {@code ".x"}, {@code "a.b.C"}. */
	public static String path(String module, String name) {
		return module + (module.isEmpty() || module.endsWith(".") ? "" : ".") + name;
	}

	/** The module part of a from-import path ({@code ".config"} of {@code ".config.BATCH"}, {@code "."} of {@code ".x"}). */
	public static String module(String path) {
		int dot = path.lastIndexOf('.');
		if (dot < 0) {
			return "";
		}
		String module = path.substring(0, dot);
		return module.isEmpty() || module.endsWith(".") ? path.substring(0, dot + 1) : module;
	}

	/** The name part of a from-import path. */
	public static String name(String path) {
		return path.substring(path.lastIndexOf('.') + 1);
	}

	/** A name a from-import binds: the module as written and the name it has there. */
	public record Source(String module, String name) {
	}

	/**
	 * Where {@code name} comes from when the last of {@code bindings} that binds it is a
	 * {@code from <module> import <name>}; null otherwise (not bound, or bound by something else last).
	 */
	public static Source fromImport(List<Program.Binding> bindings, String name) {
		Source out = null;
		for (Program.Binding b : bindings) {
			if (b.name().equals(name)) {
				out = b.value() instanceof Expr.Opaque o && o.kind().startsWith(FROM)
						? new Source(module(o.kind().substring(FROM.length())), name(o.kind().substring(FROM.length())))
						: null;
			}
		}
		return out;
	}
}
