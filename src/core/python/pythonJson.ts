// Python's json.dumps(obj, ensure_ascii=False, indent=N) for an explicitly ordered tree (float repr, int vs float,
// key order and layout as CPython writes them), so `lokal score` can write eval.py's file byte for byte.

export type PyJson =
  | { kind: 'dict'; entries: Array<[string, PyJson]> }
  | { kind: 'list'; items: PyJson[] }
  | { kind: 'float'; value: number }
  | { kind: 'int'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

/** Python `repr(float)`: shortest round-trip digits, fixed notation for exponents -4..15, else `1e-05` style. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Where both languages write fixed notation (Python from 1e-4 to 1e16, JS from 1e-7 to 1e21), JS's shortest digits
  // are Python's; only the `.0` of integral values differs.
  const abs = x < 0 ? -x : x;
  if (abs >= 1e-4 && abs < 1e16) {
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    return `${sign}${whole}.${digits.slice(exp + 1) || '0'}`;
  }
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
  return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Python json's text for one scalar or container, indented as `json.dumps(..., indent=indent)` does. */
export function pythonJsonDumps(node: PyJson, indent = 4): string {
  const pad = ' '.repeat(indent);
  const write = (n: PyJson, level: number): string => {
    switch (n.kind) {
      case 'str':
        return JSON.stringify(n.value);
      case 'float':
        return pythonFloatRepr(n.value);
      case 'int':
        return String(n.value);
      case 'bool':
        return n.value ? 'true' : 'false';
      case 'null':
        return 'null';
      case 'list': {
        if (n.items.length === 0) return '[]';
        const inner = '\n' + pad.repeat(level + 1);
        return `[${inner}${n.items.map((item) => write(item, level + 1)).join(',' + inner)}\n${pad.repeat(level)}]`;
      }
      case 'dict': {
        if (n.entries.length === 0) return '{}';
        const inner = '\n' + pad.repeat(level + 1);
        const body = n.entries.map(([k, v]) => `${JSON.stringify(k)}: ${write(v, level + 1)}`).join(',' + inner);
        return `{${inner}${body}\n${pad.repeat(level)}}`;
      }
    }
  };
  return write(node, 0);
}
