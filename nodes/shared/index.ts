/**
 * The shared layer's one surface: the two nodes and the credential import from here only.
 *
 * Its folders, each owning its own state, import one way only (a folder imports the folders after
 * it, never one before it; files inside nodes/shared import each other directly, never through an
 * index.ts):
 *
 *   parameters -> transport -> auth -> pacing -> gateway -> common -> errors -> credential
 *
 * - parameters/: the parameters several resources or both nodes declare, each once (Warehouse
 *   Code, Partner SKU, the country, the amounts of prices, the ASN Number, the resource locator);
 * - transport/: the request pipeline (request.ts), the registry of node runs (run.ts), the
 *   connection settings of a run (settings.ts), export downloads (download.ts) and their node
 *   options (downloadOptions.ts), the pages of a list that follows next_token (pages.ts), the
 *   warehouse list of the editor (warehouses.ts);
 * - auth/: the login token, the login, the session shared between requests, `authenticate`;
 * - pacing/: the rate plan's limiters, the run's limits (waiting budget, circuit breaker) and
 *   their node options (options.ts), pacing and repeats, download slots;
 * - gateway/: the endpoint table, URLs, which addresses a download may reach, reading answers;
 * - common/: waits that end on a stop, values, the package's constants, what a description says
 *   of a parameter (its label, name, allowed values, rows);
 * - errors/: the errors the user reads, the service's error bodies, redaction of secrets;
 * - credential/: the credential's form (fields.ts: labels and defaults, at the bottom because
 *   messages of every folder name them), its gateways and the address it talks to, the documented
 *   rate plans (plan.ts: the endpoint table's plans, the Requests per Minute default).
 *
 * The settings the shared layer enforces are declared here once, label and default, and the nodes
 * and the credential list them: each message reads the label it names from its declaration.
 */
export { authenticateRequest, loginForRun, sharedLogin } from './auth';
export {
	allowedValues,
	booleanProblem,
	collectionProblem,
	CREDENTIAL_TYPE,
	EVENT_TYPE_PATTERN,
	HEADER_NAME_PATTERN,
	eventLoopTurns,
	inputField,
	isInputField,
	keyProblem,
	lifeAge,
	MAX_TEXT_LENGTH,
	MAX_TIMER_MS,
	monotonicNow,
	named,
	NODE_DESCRIPTION,
	numberAdvice,
	numberProblem,
	optionLabel,
	optionProblem,
	parseBoolean,
	parseNumber,
	POSSIBLE_DUPLICATE,
	propertyIn,
	quoted,
	quotedName,
	rowsOf,
	shown,
	startNewLifeForTests,
	textProblem,
	thisLife,
	USER_AGENT,
	wait,
	WHOAMI_PATH,
	type InputField,
	type Kind,
	type Life,
	type NumberRule,
	type Turns,
} from './common';
export {
	credentialProperties,
	GATEWAY_BASE_URL_EXPRESSION,
	gatewayBaseUrl,
	keyIdField,
	privateKeyField,
	projectCodeField,
} from './credential';
export { PEM_PRIVATE_KEY, redactSent, redactValue, secretsIn } from './errors';
export { addressForLog, gatewayScope, isDotSegment, type Endpoint } from './gateway';
export { PACING, stopAfterFailuresOption, waitingBudgetOption } from './pacing';
export {
	amountProperty,
	asnNrProperty,
	COUNTRY_CODES,
	COUNTRY_OPTIONS,
	countryCodeProperty,
	countryTextProperty,
	fbnCountryProperty,
	labelOf,
	locatorProperty,
	MARKETPLACE_COUNTRIES,
	MAX_NAMSHI_PRICE_ROWS,
	msrpProperty,
	NAMSHI_AMOUNT_NOTE,
	PARTNER_SKU_KEY,
	partnerSkuProperty,
	warehouseCodeProperty,
} from './parameters';
export {
	apiRequest,
	connectionSettings,
	downloadFile,
	downloadTimeoutOption,
	knownWarehouses,
	loginsDuringRun,
	MAX_DOWNLOAD_TIMEOUT_SECONDS,
	maxFileSizeOption,
	pages,
	pollRun,
	runPolicy,
	searchWarehouses,
	sessionSecrets,
	setRunLimits,
	suggestedConcurrency,
} from './transport';
