package dev.ptotools.codegen.write;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in the operating system's words (strerror's, as cp and git say it): Java
 * gives only the path for the common cases, which leaves the user guessing.
 */
public final class IoErrors {

	private IoErrors() {
	}

	/** The reason in lower case, as it follows a path and a colon ("permission denied"). */
	public static String reason(IOException e) {
		String r = raw(e);
		return r.length() > 1 && Character.isUpperCase(r.charAt(0)) && Character.isLowerCase(r.charAt(1))
				? Character.toLowerCase(r.charAt(0)) + r.substring(1)
				: r;
	}

	private static String raw(IOException e) {
		if (e instanceof FileSystemException f && f.getReason() != null) {
			return f.getReason();
		}
		if (e instanceof AccessDeniedException) {
			return "Permission denied";
		}
		if (e instanceof NoSuchFileException) {
			return "No such file or directory";
		}
		if (e instanceof NotDirectoryException) {
			return "Not a directory";
		}
		if (e instanceof FileAlreadyExistsException) {
			return "File exists";
		}
		if (e instanceof DirectoryNotEmptyException) {
			return "Directory not empty";
		}
		String m = e.getMessage();
		return m == null ? e.getClass().getSimpleName() : m;
	}
}
