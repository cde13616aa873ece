package dev.ptotools.language.syntax;

import java.util.List;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;
import org.eclipse.xtext.AbstractRule;
import org.eclipse.xtext.GrammarUtil;
import org.eclipse.xtext.nodemodel.INode;
import org.eclipse.xtext.nodemodel.util.NodeModelUtils;

import dev.ptotools.language.Spans;
import dev.ptotools.language.python.AnnAssign;
import dev.ptotools.language.python.ArgumentList;
import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.Attribute;
import dev.ptotools.language.python.AugAssign;
import dev.ptotools.language.python.Call;
import dev.ptotools.language.python.Comprehension;
import dev.ptotools.language.python.Constant;
import dev.ptotools.language.python.Delete;
import dev.ptotools.language.python.DoubleStarred;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.FormalParameter;
import dev.ptotools.language.python.GeneratorExp;
import dev.ptotools.language.python.KeywordArg;
import dev.ptotools.language.python.KwArgs;
import dev.ptotools.language.python.ListExpr;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.Param;
import dev.ptotools.language.python.PythonPackage;
import dev.ptotools.language.python.ParameterList;
import dev.ptotools.language.python.Paren;
import dev.ptotools.language.python.PositionalOnlyMarker;
import dev.ptotools.language.python.Starred;
import dev.ptotools.language.python.Subscript;
import dev.ptotools.language.python.TupleExpr;
import dev.ptotools.language.python.VarArgs;
import dev.ptotools.language.python.WithItem;

/**
 * Checks that CPython's parser makes and an LL grammar cannot express without backtracking: what may
 * stand on the left of '=', the order of arguments and parameters, a generator argument next to
 * others. Messages are CPython's. Runs only on ASTs without parser errors, since a recovered tree
 * would give false reports.
 */
public final class PythonSyntaxChecks {

	/** Receives one problem: offset, length, message. */
	@FunctionalInterface
	public interface Sink {
		void report(int offset, int length, String message);
	}

	private final Sink sink;

	private PythonSyntaxChecks(Sink sink) {
		this.sink = sink;
	}

	public static void check(EObject root, Sink sink) {
		PythonSyntaxChecks checks = new PythonSyntaxChecks(sink);
		for (TreeIterator<EObject> it = root.eAllContents(); it.hasNext();) {
			checks.visit(it.next());
		}
	}

	/** Checks the given objects (every object of a parse, in any order). */
	public static void check(Iterable<EObject> objects, Sink sink) {
		PythonSyntaxChecks checks = new PythonSyntaxChecks(sink);
		for (EObject o : objects) {
			checks.visit(o);
		}
	}

	/**
	 * Whether any check looks at an object. Most objects are expressions no check looks at: one int
	 * switch on the class keeps the cost of a walk to a table lookup per object (a chain of interface
	 * instanceof tests was not).
	 */
	public static boolean looksAt(EObject o) {
		switch (o.eClass().getClassifierID()) {
		case PythonPackage.ASSIGN, PythonPackage.AUG_ASSIGN, PythonPackage.ANN_ASSIGN, PythonPackage.FOR_STMT,
				PythonPackage.COMPREHENSION, PythonPackage.WITH_ITEM, PythonPackage.DELETE, PythonPackage.ARGUMENT_LIST,
				PythonPackage.PARAMETER_LIST:
			return true;
		default:
			return false;
		}
	}

	private void visit(EObject o) {
		if (!looksAt(o)) {
			return;
		}
		if (o instanceof Assign a) {
			List<Expression> items = a.getTargets();
			for (int i = 0; i < items.size() - 1; i++) {
				target(items.get(i), "assign to", true);
			}
		} else if (o instanceof AugAssign a) {
			Expression t = unparen(a.getTarget());
			if (!(t instanceof Name || t instanceof Attribute || t instanceof Subscript)) {
				report(t, "'" + describe(t) + "' is an illegal expression for augmented assignment");
			}
		} else if (o instanceof AnnAssign a) {
			Expression t = a.getTarget();
			if (t instanceof TupleExpr) {
				report(t, "only single target (not tuple) can be annotated");
			} else if (t instanceof ListExpr) {
				report(t, "only single target (not list) can be annotated");
			} else if (!(t instanceof Name || t instanceof Attribute || t instanceof Subscript || t instanceof Paren)) {
				report(t, "illegal target for annotation");
			}
		} else if (o instanceof ForStmt f) {
			target(f.getTarget(), "assign to", false);
		} else if (o instanceof Comprehension c) {
			target(c.getTarget(), "assign to", false);
		} else if (o instanceof WithItem w && w.getTarget() != null) {
			target(w.getTarget(), "assign to", false);
		} else if (o instanceof Delete d) {
			target(d.getTargets(), "delete", false);
		} else if (o instanceof ArgumentList args) {
			arguments(args);
		} else if (o instanceof ParameterList params) {
			parameters(params);
		}
	}

	private static Expression unparen(Expression e) {
		Expression x = e;
		while (x instanceof Paren p && p.getValue() != null) {
			x = p.getValue();
		}
		return x;
	}

	private void target(Expression t, String verb, boolean assignment) {
		if (t == null) {
			return;
		}
		if (t instanceof Name || t instanceof Attribute || t instanceof Subscript) {
			return;
		}
		if (t instanceof Paren p) {
			target(p.getValue(), verb, assignment);
			return;
		}
		if (t instanceof TupleExpr tuple) {
			tuple.getElts().forEach(e -> target(e, verb, assignment));
			return;
		}
		if (t instanceof ListExpr list) {
			list.getElts().forEach(e -> target(e, verb, assignment));
			return;
		}
		if (t instanceof Starred s && !verb.equals("delete")) {
			target(s.getValue(), verb, assignment);
			return;
		}
		String hint = assignment && (t instanceof Call || t instanceof Constant) ? " here. Maybe you meant '==' instead of '='?" : "";
		report(t, "cannot " + verb + " " + describe(t) + hint);
	}

	private void arguments(ArgumentList list) {
		boolean keyword = false;
		boolean keywordUnpack = false;
		List<Expression> args = list.getArgs();
		for (Expression a : args) {
			if (a instanceof GeneratorExp && args.size() > 1 && isBareGenerator(a)) {
				report(a, "Generator expression must be parenthesized");
			}
			if (a instanceof KeywordArg) {
				keyword = true;
			} else if (a instanceof DoubleStarred) {
				keywordUnpack = true;
			} else if (a instanceof Starred) {
				if (keywordUnpack) {
					report(a, "iterable argument unpacking follows keyword argument unpacking");
				}
			} else if (keywordUnpack) {
				report(a, "positional argument follows keyword argument unpacking");
			} else if (keyword) {
				report(a, "positional argument follows keyword argument");
			}
		}
	}

	/** A generator written as an argument without parentheses of its own (made by rule Argument). */
	private static boolean isBareGenerator(EObject genexp) {
		INode node = NodeModelUtils.getNode(genexp);
		if (node == null || node.getGrammarElement() == null) {
			return false;
		}
		AbstractRule rule = GrammarUtil.containingRule(node.getGrammarElement());
		return rule != null && rule.getName().equals("Argument");
	}

	private void parameters(ParameterList list) {
		boolean sawDefault = false;
		boolean sawStar = false;
		boolean sawSlash = false;
		boolean sawKwargs = false;
		List<FormalParameter> params = list.getParams();
		for (int i = 0; i < params.size(); i++) {
			FormalParameter p = params.get(i);
			if (sawKwargs) {
				report(p, "arguments cannot follow var-keyword argument");
				return;
			}
			if (p instanceof PositionalOnlyMarker) {
				if (sawSlash) {
					report(p, "/ may appear only once");
				} else if (sawStar) {
					report(p, "/ must be ahead of *");
				} else if (i == 0) {
					report(p, "at least one argument must precede /");
				}
				sawSlash = true;
			} else if (p instanceof VarArgs v) {
				if (sawStar) {
					report(p, "* argument may appear only once");
				}
				sawStar = true;
				boolean bare = v.getName() == null;
				boolean followed = i + 1 < params.size() && params.get(i + 1) instanceof Param;
				if (bare && !followed) {
					report(p, "named arguments must follow bare *");
				}
			} else if (p instanceof KwArgs) {
				sawKwargs = true;
			} else if (p instanceof Param param) {
				if (param.getDefault() != null) {
					sawDefault = true;
				} else if (sawDefault && !sawStar) {
					report(p, "non-default argument follows default argument");
				}
			}
		}
	}

	private static String describe(Expression e) {
		if (e instanceof Call) {
			return "function call";
		}
		if (e instanceof Constant c) {
			return c.getValue();
		}
		String kind = e.eClass().getName();
		return switch (kind) {
		case "Num", "Str", "Ellipsis", "ComplexLiteral" -> "literal";
		case "BinOp", "UnaryOp", "Compare", "BoolOp" -> "expression";
		case "Lambda" -> "lambda";
		case "IfExp" -> "conditional expression";
		case "NamedExpr" -> "named expression";
		case "Await" -> "await expression";
		case "Yield", "YieldFrom" -> "yield expression";
		case "DictExpr" -> "dict literal";
		case "SetExpr" -> "set display";
		case "ListComp" -> "list comprehension";
		case "SetComp" -> "set comprehension";
		case "DictComp" -> "dict comprehension";
		case "GeneratorExp" -> "generator expression";
		case "Starred" -> "starred";
		default -> "expression";
		};
	}

	private void report(EObject o, String message) {
		Spans.Span s = Spans.of(o);
		if (s != null) {
			sink.report(s.offset(), s.length(), message);
		}
	}
}
