package dev.ptotools.codegen.write;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * Replacing and removing program folders as wholes, inside one output folder held for the duration
 * (a file lock, {@code .pto-lock}, between processes: the editor saving while {@code pto compile}
 * runs; a lock per folder between threads).
 * <p>
 * A new folder is built in a hidden staging folder ({@code .pto-staging.<random>}) and renamed into
 * place; the folder it replaces is first renamed aside ({@code .pto-old.<random>.<program>}) and then
 * deleted. The two renames are the only moment the program folder is absent: a shutdown (Ctrl-C) waits
 * for them ({@link #GUARD}) and then deletes the staging folders; after a kill, the next write finds
 * what was left ({@link #recover}): staging folders are deleted, and a folder set aside is put back
 * when its program folder is missing, else deleted.
 */
final class FolderSwap implements AutoCloseable {

	/** Thrown when the process is shutting down: no swap starts any more. */
	static final class Interrupted extends Exception {
		private static final long serialVersionUID = 1L;

		Interrupted() {
			super("shutting down");
		}
	}

	static final String LOCK = ".pto-lock";
	private static final String STAGING = ".pto-staging.";
	private static final String OLD = ".pto-old.";
	private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();
	private static final Guard GUARD = new Guard();

	private final Path root;
	private final ReentrantLock threadLock;
	private final FileChannel channel;
	private final FileLock fileLock;

	private FolderSwap(Path root, ReentrantLock threadLock, FileChannel channel, FileLock fileLock) {
		this.root = root;
		this.threadLock = threadLock;
		this.channel = channel;
		this.fileLock = fileLock;
	}

	/**
	 * A pause after each folder, for tests that interrupt a write in the middle (as git's GIT_TEST_*
	 * variables): {@code PTO_TEST_WRITE_DELAY_MS}. Unset, zero.
	 */
	private static final long TEST_DELAY_MS = testDelay();

	private static long testDelay() {
		try {
			return Math.max(0, Long.parseLong(System.getenv().getOrDefault("PTO_TEST_WRITE_DELAY_MS", "0")));
		} catch (NumberFormatException e) {
			return 0;
		}
	}

	/** Waits {@code PTO_TEST_WRITE_DELAY_MS} (tests only; no wait otherwise). */
	static void testPause() {
		if (TEST_DELAY_MS > 0) {
			try {
				Thread.sleep(TEST_DELAY_MS);
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Holds the output folder until {@link #close}; waits for another writer holding it. */
	static FolderSwap lock(Path root) throws IOException {
		ReentrantLock threadLock = IN_PROCESS.computeIfAbsent(root, k -> new ReentrantLock());
		threadLock.lock();
		FileChannel channel = null;
		try {
			channel = FileChannel.open(root.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			return new FolderSwap(root, threadLock, channel, channel.lock());
		} catch (IOException | RuntimeException e) {
			if (channel != null) {
				channel.close();
			}
			threadLock.unlock();
			throw e;
		}
	}

	@Override
	public void close() throws IOException {
		try {
			fileLock.release();
			channel.close();
		} finally {
			threadLock.unlock();
		}
	}

	/** Cleans up after a writer that was killed while it held the folder. */
	void recover() throws IOException {
		try (Stream<Path> s = Files.list(root)) {
			for (Path p : s.toList()) {
				String name = p.getFileName().toString();
				if (name.startsWith(STAGING)) {
					deleteTree(p);
				} else if (name.startsWith(OLD)) {
					int dot = name.indexOf('.', OLD.length());
					Path program = dot < 0 ? null : root.resolve(name.substring(dot + 1));
					if (program != null && !Files.exists(program, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
						move(p, program);
					} else {
						deleteTree(p);
					}
				}
			}
		}
	}

	/** A new, empty staging folder, deleted at shutdown if it is still there. */
	Path stage() throws IOException {
		Path staging = Files.createDirectory(root.resolve(STAGING + random()));
		GUARD.staging.add(staging);
		return staging;
	}

	/** Puts a staged folder in place of the program folder (absent or not). */
	void replace(String folder, Path staging) throws IOException, Interrupted {
		Path target = root.resolve(folder);
		Path aside = root.resolve(OLD + random() + "." + folder);
		GUARD.enter();
		try {
			boolean existed = Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
			if (existed) {
				move(target, aside);
			}
			try {
				move(staging, target);
			} catch (IOException e) {
				if (existed) {
					move(aside, target);
				}
				throw e;
			}
			GUARD.staging.remove(staging);
		} finally {
			GUARD.exit();
		}
		deleteTree(aside);
	}

	/** Removes a program folder: renamed aside at once, then deleted. */
	void remove(String folder) throws IOException, Interrupted {
		Path aside = root.resolve(OLD + random() + "." + folder);
		GUARD.enter();
		try {
			move(root.resolve(folder), aside);
		} finally {
			GUARD.exit();
		}
		deleteTree(aside);
	}

	/**
	 * A hard link to an unchanged file of the folder being replaced, so it keeps its time stamp (build
	 * tools that compare times see no change); false when the file system cannot link.
	 */
	static boolean linkOrCopy(Path existing, Path target) {
		try {
			Files.createLink(target, existing);
			return true;
		} catch (IOException | UnsupportedOperationException e) {
			try {
				Files.copy(existing, target, StandardCopyOption.COPY_ATTRIBUTES);
				return true;
			} catch (IOException e2) {
				return false;
			}
		}
	}

	private static void move(Path from, Path to) throws IOException {
		try {
			Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
		} catch (AtomicMoveNotSupportedException e) {
			Files.move(from, to);
		}
	}

	/** Deletes a folder and what it holds, never following a symbolic link. */
	static void deleteTree(Path dir) throws IOException {
		if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		Files.walkFileTree(dir, new SimpleFileVisitor<>() {
			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Files.deleteIfExists(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
				if (e != null) {
					throw e;
				}
				Files.deleteIfExists(d);
				return FileVisitResult.CONTINUE;
			}
		});
	}

	private static String random() {
		return Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
	}

	/**
	 * The process's side of interruption: a shutdown hook (Ctrl-C runs it) that lets a swap under way end,
	 * starts no other, and deletes the staging folders left.
	 */
	private static final class Guard {
		private final ReentrantLock swapping = new ReentrantLock();
		private final Set<Path> staging = ConcurrentHashMap.newKeySet();
		private volatile boolean stopping;

		Guard() {
			try {
				Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "pto-output-shutdown"));
			} catch (IllegalStateException e) {
				stopping = true; // created during shutdown: nothing may start
			}
		}

		void enter() throws Interrupted {
			swapping.lock();
			if (stopping) {
				swapping.unlock();
				throw new Interrupted();
			}
		}

		void exit() {
			swapping.unlock();
		}

		private void shutdown() {
			stopping = true;
			try {
				if (swapping.tryLock(30, TimeUnit.SECONDS)) {
					swapping.unlock();
				}
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			for (Path p : staging) {
				try {
					deleteTree(p);
				} catch (IOException e) {
					// the next write's recover() deletes it
				}
			}
		}
	}
}
