// A small arithmetic evaluator for the calculator tool: numbers, + - * / % ^, parentheses, unary
// minus, the constants pi and e, and a few functions. A recursive-descent parser over the text, so
// nothing the model sends is ever run as code.

const FUNCTIONS: Record<string, (...values: number[]) => number> = {
	sqrt: Math.sqrt,
	abs: Math.abs,
	round: Math.round,
	floor: Math.floor,
	ceil: Math.ceil,
	ln: Math.log,
	log10: Math.log10,
	log2: Math.log2,
	exp: Math.exp,
	sin: Math.sin,
	cos: Math.cos,
	tan: Math.tan,
	min: Math.min,
	max: Math.max,
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

const MAX_EXPRESSION_LENGTH = 1000;

/** The value of `expression`; throws an Error saying what is wrong with it. */
export function evaluateArithmetic(expression: string): number {
	if (expression.length > MAX_EXPRESSION_LENGTH) {
		throw new Error(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
	}
	const tokens = expression.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|[A-Za-z_][A-Za-z0-9_]*|\*\*|\S/g) ?? [];
	let position = 0;
	const peek = () => tokens[position];
	const take = (expected?: string) => {
		const token = tokens[position];
		if (token === undefined) throw new Error("the expression ends too soon");
		if (expected !== undefined && token !== expected) throw new Error(`expected "${expected}", found "${token}"`);
		position++;
		return token;
	};

	const sum = (): number => {
		let value = product();
		while (peek() === "+" || peek() === "-") value = take() === "+" ? value + product() : value - product();
		return value;
	};
	const product = (): number => {
		let value = power();
		while (peek() === "*" || peek() === "/" || peek() === "%") {
			const operator = take();
			const right = power();
			value = operator === "*" ? value * right : operator === "/" ? value / right : value % right;
		}
		return value;
	};
	const power = (): number => {
		const base = unary();
		if (peek() === "^" || peek() === "**") {
			take();
			return base ** power();
		}
		return base;
	};
	const unary = (): number => {
		if (peek() === "-") {
			take();
			return -unary();
		}
		if (peek() === "+") {
			take();
			return unary();
		}
		return primary();
	};
	const primary = (): number => {
		const token = take();
		if (token === "(") {
			const value = sum();
			take(")");
			return value;
		}
		if (/^(\d|\.)/.test(token)) return Number(token);
		const name = token.toLowerCase();
		if (name in CONSTANTS) return CONSTANTS[name];
		const fn = FUNCTIONS[name];
		if (fn) {
			take("(");
			const args = [sum()];
			while (peek() === ",") {
				take();
				args.push(sum());
			}
			take(")");
			return fn(...args);
		}
		throw new Error(`unknown name or symbol "${token}"`);
	};

	const value = sum();
	if (position < tokens.length) throw new Error(`unexpected "${tokens[position]}"`);
	if (!Number.isFinite(value)) throw new Error("the result is not a finite number");
	return value;
}
