// SPDX-License-Identifier: LGPL-2.1-or-later
// Literal text in generated scripts: every value is one word a shell will neither split nor expand,
// and a YAML scalar that Ansible will not template, whatever characters it holds.

/** A single-quoted sh word: nothing inside single quotes is special but the quote itself. */
export function shLiteral(text: string): string {
    return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A double-quoted YAML scalar (JSON's escapes are YAML's), tagged so Ansible never templates it. */
export function yamlLiteral(text: string): string {
    return `!unsafe ${JSON.stringify(text)}`;
}

/** A plain YAML string for text Ansible should template (only expressions the generator wrote). */
export function yamlTemplate(text: string): string {
    return JSON.stringify(text);
}
