// Copies the SVG icons next to the compiled code: icons/*.svg into dist/icons, and any SVG kept
// beside a node or credential into the same place under dist/.
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

exports['build:icons'] = parallel(sharedIcons, nodeIcons);
