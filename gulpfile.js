// Copies what the build needs beside the compiled code: icons/*.svg into dist/icons, any SVG kept
// beside a node or credential into the same place under dist/, and the output schemas n8n's editor
// previews (nodes/**/__schema__/**/*.json, read beside the node file: see test/helpers/outputSchemas.ts).
const { src, dest, parallel } = require('gulp');

function sharedIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

function nodeIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		allowEmpty: true,
	}).pipe(dest('dist'));
}

function outputSchemas() {
	return src('nodes/**/__schema__/**/*.json', { base: '.', allowEmpty: true }).pipe(dest('dist'));
}

exports['build:icons'] = parallel(sharedIcons, nodeIcons);
exports['build:schemas'] = outputSchemas;
