package dev.ptotools.analyzer.project;

import java.util.Map;

import dev.ptotools.analyzer.facts.Values;

/**
 * What the imports of the analyzed module bind when they name other modules of the project, as running
 * the module would bind them: the folded module-level constants of {@code from .config import BATCH},
 * {@code from .config import *} and {@code import pkg.config as cfg}. Modules are named as written, with
 * their leading dots ({@code ".config"}, {@code "..config"}, {@code "pkg.config"}). A module outside the
 * project (pypto, torch, the standard library), or a value its module only computes when it runs, is
 * {@link Values.Unknown}: never an error by itself.
 */
public interface ImportedModules {

	/** What {@code from <module> import <name>} binds; {@link Values.Unknown} when it is not known. */
	Object value(String module, String name);

	/**
	 * The names {@code from <module> import *} binds, in order, with their values (its {@code __all__}, else
	 * every public name); an empty map when the module is not one of the project's.
	 */
	Map<String, Object> star(String module);

	/** {@code import <module> as x}: the module's namespace, or {@link Values.Unknown}. */
	Object module(String module);

	/** Why {@code module} gives nothing (missing, an import cycle, a syntax error), or null when it does. */
	String problem(String module);

	/**
	 * The {@code @pl.jit...} function {@code from <module> import <name>} binds (followed through the
	 * modules that import it in turn), or null when it binds none; its spans start at the base
	 * {@code bases} gives its module.
	 */
	default ImportedFunction jitFunction(String module, String name, SpanBases bases) {
		return null;
	}

	/**
	 * Where a name of another module of the project is defined, as running the import would find it: its
	 * last top-level binding, def or class there, followed through that module's own imports (re-exports,
	 * star imports) while they stay in the project; a submodule ({@code from pkg import config}) is its file.
	 * Null when the module is not the project's or does not define the name.
	 */
	default Definition definition(String module, String name) {
		return null;
	}

	/**
	 * The module files of the project read so far for the analyzed file, its imports' imports included:
	 * what its analysis depends on besides its own text.
	 */
	default java.util.Set<java.nio.file.Path> modulesRead() {
		return java.util.Set.of();
	}

	/**
	 * What running {@code from <module> import <name>} (name null: {@code import <module>}) raises, as
	 * Python says it ("ModuleNotFoundError: No module named 'pkg.missing'"), or null when it runs or that
	 * cannot be known (a module outside the project may be installed; a name a module binds by means the
	 * analyzer does not read is assumed bound).
	 */
	default String importError(String module, String name) {
		return null;
	}

	/** The file of a module of the project ({@code import pkg.config as cfg}), or null. */
	default Definition moduleFile(String module) {
		return null;
	}

	/**
	 * A place in another module's file.
	 *
	 * @param text the module's text as read, which span is an offset range of
	 */
	record Definition(java.nio.file.Path file, String text, dev.ptotools.analyzer.ir.Span span) {
	}

	/** A module that imports nothing of the project's. */
	ImportedModules NONE = new ImportedModules() {
		@Override
		public Object value(String module, String name) {
			return Values.Unknown.INSTANCE;
		}

		@Override
		public Map<String, Object> star(String module) {
			return Map.of();
		}

		@Override
		public Object module(String module) {
			return Values.Unknown.INSTANCE;
		}

		@Override
		public String problem(String module) {
			return null;
		}
	};
}
