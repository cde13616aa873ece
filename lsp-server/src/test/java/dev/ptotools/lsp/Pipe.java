package dev.ptotools.lsp;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An in-memory byte pipe without PipedInputStream's "write end dead" check: LSP4J writes from
 * whichever thread answers, and those threads come and go.
 */
public final class Pipe {

	private static final byte[] EOF = new byte[0];
	private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();

	public final OutputStream out = new OutputStream() {
		@Override
		public void write(int b) {
			chunks.add(new byte[] { (byte) b });
		}

		@Override
		public void write(byte[] b, int off, int len) {
			if (len > 0) {
				byte[] copy = new byte[len];
				System.arraycopy(b, off, copy, 0, len);
				chunks.add(copy);
			}
		}

		@Override
		public void close() {
			chunks.add(EOF);
		}
	};

	public final InputStream in = new InputStream() {
		private byte[] current = new byte[0];
		private int pos;
		private boolean ended;

		private boolean fill() {
			while (pos >= current.length) {
				if (ended) {
					return false;
				}
				try {
					current = chunks.take();
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					return false;
				}
				pos = 0;
				if (current == EOF) {
					ended = true;
					return false;
				}
			}
			return true;
		}

		@Override
		public int read() {
			return fill() ? current[pos++] & 0xff : -1;
		}

		@Override
		public int read(byte[] b, int off, int len) {
			if (len == 0) {
				return 0;
			}
			if (!fill()) {
				return -1;
			}
			int n = Math.min(len, current.length - pos);
			System.arraycopy(current, pos, b, off, n);
			pos += n;
			return n;
		}
	};
}
