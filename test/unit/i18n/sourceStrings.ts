// SPDX-License-Identifier: LGPL-2.1-or-later
// An oracle for the translation template that shares nothing with tools/i18n/pot.ts: the
// TypeScript compiler's own syntax tree of every source file, and every call of _(), N_() or
// ngettext() in it. If xgettext (on esbuild's output) ever misses or invents a string, the
// template and this list differ.

import { join } from 'node:path';
import ts from 'typescript';

export const REPO = join(__dirname, '../../..');

export interface SourceString {
    id: string;
    plural: string | null;
    file: string;
}

export function stringsInSource(file: string, text: string): { strings: SourceString[]; dynamic: string[] } {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const strings: SourceString[] = [];
    const dynamic: string[] = [];
    const literal = (node: ts.Node | undefined) =>
        node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
    const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['_', 'N_', 'ngettext'].includes(node.expression.text)) {
            const id = literal(node.arguments[0]);
            const plural = node.expression.text === 'ngettext' ? literal(node.arguments[1]) : null;
            if (id === null || (node.expression.text === 'ngettext' && plural === null)) {
                dynamic.push(`${file}: ${node.getText()}`);
            } else {
                strings.push({ id, plural, file });
            }
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return { strings, dynamic };
}
