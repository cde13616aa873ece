package dev.ptotools.lsp;

import java.util.List;
import java.util.Map;

import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.validation.ReflectiveMessageValidator;

/**
 * Parameters no good client sends, refused at the door with JSON-RPC's InvalidParams (-32602) instead
 * of reaching a feature as null and coming back as an internal error: a request without the params
 * its method takes ({@code "params": null}), or whose params lack a field LSP marks required (LSP4J's
 * {@code @NonNull}, checked by its own reflective validator). A notification so sent is dropped, as a
 * notification has no answer. Wraps the incoming side of the connection only.
 */
public final class InvalidParams {

	private InvalidParams() {
	}

	/** The exception a feature throws for arguments it cannot use (a command's), answered as InvalidParams. */
	public static ResponseErrorException error(String message) {
		return new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams, message, null));
	}

	/** A message wrapper for {@code Launcher.Builder.wrapMessages}: guards what reaches the server. */
	public static MessageConsumer guard(MessageConsumer consumer, Map<String, JsonRpcMethod> methods) {
		if (!(consumer instanceof RemoteEndpoint remote)) {
			return consumer; // the outgoing side
		}
		return message -> {
			List<MessageIssue> issues = issues(message, methods);
			if (issues.isEmpty()) {
				remote.consume(message);
			} else if (message instanceof RequestMessage) {
				remote.handle(message, issues);
			}
		};
	}

	static List<MessageIssue> issues(Message message, Map<String, JsonRpcMethod> methods) {
		String method;
		Object params;
		if (message instanceof RequestMessage r) {
			method = r.getMethod();
			params = r.getParams();
		} else if (message instanceof NotificationMessage n) {
			method = n.getMethod();
			params = n.getParams();
		} else {
			return List.of();
		}
		JsonRpcMethod m = method == null ? null : methods.get(method);
		if (m == null || m.getParameterTypes().length == 0) {
			return List.of();
		}
		if (params == null) {
			return List.of(new MessageIssue(method + " needs its params; got none",
					ResponseErrorCode.InvalidParams.getValue()));
		}
		List<MessageIssue> found = FIELDS.check(params);
		return found.isEmpty() ? List.of()
				: List.of(new MessageIssue(method + ": " + found.get(0).getText(), ResponseErrorCode.InvalidParams.getValue()));
	}

	private static final Fields FIELDS = new Fields();

	/** LSP4J's validator, on the params alone: the fields marked {@code @NonNull} are there. */
	private static final class Fields extends ReflectiveMessageValidator {
		List<MessageIssue> check(Object params) {
			return validate(params);
		}
	}
}
