// SPDX-License-Identifier: LGPL-2.1-or-later
// Stands for a stylesheet imported by a component rendered in jsdom (jest.config.js).
module.exports = {};
