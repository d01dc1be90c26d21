/**
 * common/: plain helpers every folder may use: waits that end on a stop, values, constants, what a
 * description says of a parameter.
 */
export { MAX_TIMER_MS, wait } from './abort';
export { MONOTONIC, monotonicNow, wallDateOf, type ElapsedClock } from './clock';
export { lifeAge, POSSIBLE_DUPLICATE, startNewLifeForTests, thisLife, type Life } from './life';
export { eventLoopTurns, TURN_MS, type Turns } from './turns';
export {
	CREDENTIAL_TYPE,
	EVENT_TYPE_PATTERN,
	HEADER_NAME_PATTERN,
	NODE_DESCRIPTION,
	USER_AGENT,
	WHOAMI_PATH,
} from './constants';
export {
	allowedValues,
	inputField,
	isInputField,
	named,
	optionLabel,
	propertyIn,
	quotedName,
	rowsOf,
	type InputField,
	type Kind,
} from './properties';
export {
	booleanProblem,
	collectionProblem,
	keyProblem,
	MAX_TEXT_LENGTH,
	numberAdvice,
	numberProblem,
	optionProblem,
	parseBoolean,
	parseNumber,
	quoted,
	shown,
	textProblem,
	type NumberRule,
} from './values';
