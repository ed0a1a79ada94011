// SPDX-License-Identifier: LGPL-2.1-or-later
import { parseGatherOutput } from '../../../src/md/snapshot';

describe('gather output', () => {
    test('maps relative paths to canonical ones, per root', () => {
        const snapshot = parseGatherOutput([
            '@@pagesize 65536', '@@root proc', 'mdstat:Personalities : [raid1]', 'mdstat:', 'mdstat:unused devices: <none>',
            '@@root sys', 'block/md0/md/level:raid1', '@@end', '',
        ].join('\n'));
        expect(snapshot).toEqual({
            pageSize: 65536, missingRoots: [], complete: true, id: expect.any(Number), sysPaths: ['/sys/block/md0/md/level'], reusedSections: [], sectionPaths: expect.any(Map),
            files: new Map([
                ['/proc/mdstat', 'Personalities : [raid1]\n\nunused devices: <none>\n'],
                ['/sys/block/md0/md/level', 'raid1\n'],
            ]),
        });
    });

    test('a value containing ":" keeps it', () => {
        const snapshot = parseGatherOutput('@@root sys\nblock/md0/md/uuid:a:b:c\n@@end\n');
        expect(snapshot.files.get('/sys/block/md0/md/uuid')).toBe('a:b:c\n');
    });

    test('output cut off before the end marker is marked incomplete', () => {
        expect(parseGatherOutput('@@root proc\nmdstat:Personalities').complete).toBe(false);
    });

    test('lines before any root marker are ignored', () => {
        expect(parseGatherOutput('junk:line\n@@end\n').files.size).toBe(0);
    });

    test('the @@systemd marker says systemd runs the host', () => {
        expect(parseGatherOutput('@@systemd\n@@end\n').systemd).toBe(true);
        expect(parseGatherOutput('@@end\n').systemd).toBeUndefined();
    });
});
