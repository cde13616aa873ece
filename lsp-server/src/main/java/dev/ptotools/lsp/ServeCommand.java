package dev.ptotools.lsp;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

import picocli.CommandLine.Command;

/**
 * {@code pto serve}: the language server on stdin/stdout. Standard output carries only the
 * protocol: anything else that prints is sent to standard error.
 */
@Command(name = "serve", description = "Run the language server on stdin/stdout (LSP 3.17).", mixinStandardHelpOptions = true)
public final class ServeCommand implements Callable<Integer> {

	@Override
	public Integer call() throws Exception {
		InputStream in = System.in;
		OutputStream out = System.out;
		System.setOut(new PrintStream(System.err, true));
		serve(in, out, code -> {
			System.err.flush();
			Runtime.getRuntime().halt(code);
		});
		return 0;
	}

	/** Runs a server on the streams until the client exits; returns when the input ends. */
	public static void serve(InputStream in, OutputStream out, PtoLanguageServer.ExitHandler exit) throws Exception {
		serve(in, out, exit, server -> {
		});
	}

	/** {@link #serve(InputStream, OutputStream, PtoLanguageServer.ExitHandler)}, handing the server made to {@code made} (tests). */
	public static void serve(InputStream in, OutputStream out, PtoLanguageServer.ExitHandler exit,
			java.util.function.Consumer<PtoLanguageServer> made) throws Exception {
		PtoLanguageServer server = new PtoLanguageServer(exit);
		made.accept(server);
		ExecutorService messages = Executors.newCachedThreadPool(r -> {
			Thread t = new Thread(r, "pto-lsp-io");
			t.setDaemon(true);
			return t;
		});
		java.util.Map<String, org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod> methods = server.supportedMethods();
		Launcher<LanguageClient> launcher = new LSPLauncher.Builder<LanguageClient>().setLocalService(server)
				.setRemoteInterface(LanguageClient.class).setInput(in).setOutput(out).setExecutorService(messages)
				.wrapMessages(consumer -> InvalidParams.guard(consumer, methods)).create();
		server.connect(launcher.getRemoteProxy());
		try {
			launcher.startListening().get();
		} finally {
			messages.shutdownNow();
		}
		// The input ended without an exit notification: the client is gone.
		exit.exit(1);
	}
}
