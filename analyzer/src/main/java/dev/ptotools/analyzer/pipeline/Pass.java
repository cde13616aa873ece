package dev.ptotools.analyzer.pipeline;

import java.util.List;

/**
 * One step of the analysis: it reads the facts it needs from the context and adds the facts it
 * produces. Passes never mutate the IR; derived knowledge lives in the facts they add.
 */
public interface Pass {

	String name();

	List<Key<?>> needs();

	List<Key<?>> produces();

	void run(Facts facts);
}
