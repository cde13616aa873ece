package dev.ptotools.language;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs recursive work (parsing, lowering) on threads with a large stack, so that deeply nested
 * input ends in a syntax error and never in a StackOverflowError on a small default stack. Threads
 * made here are daemons and idle ones time out, so none outlives its use.
 */
public final class DeepStack {

	/** Reserved, not committed: only the pages a deep parse touches are ever used. */
	public static final long STACK_BYTES = 512L * 1024 * 1024;

	private static final ThreadGroup GROUP = new ThreadGroup("pto-deep-stack");
	private static final AtomicInteger COUNT = new AtomicInteger();
	private static final ThreadFactory FACTORY = r -> {
		Thread t = new Thread(GROUP, r, "pto-deep-stack-" + COUNT.incrementAndGet(), STACK_BYTES);
		t.setDaemon(true);
		return t;
	};
	private static final ExecutorService POOL = Executors.newCachedThreadPool(FACTORY);

	private DeepStack() {
	}

	/** A factory for callers that run their own pools of deep-stack workers. */
	public static ThreadFactory threadFactory() {
		return FACTORY;
	}

	public static boolean onDeepStack() {
		return Thread.currentThread().getThreadGroup() == GROUP;
	}

	public static <T> T call(Callable<T> work) {
		if (onDeepStack()) {
			try {
				return work.call();
			} catch (RuntimeException | Error e) {
				throw e;
			} catch (Exception e) {
				throw new IllegalStateException(e);
			}
		}
		Future<T> f = POOL.submit(work);
		try {
			return f.get();
		} catch (InterruptedException e) {
			f.cancel(true);
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", e);
		} catch (ExecutionException e) {
			Throwable cause = e.getCause();
			if (cause instanceof RuntimeException r) {
				throw r;
			}
			if (cause instanceof Error err) {
				throw err;
			}
			throw new IllegalStateException(cause);
		}
	}
}
