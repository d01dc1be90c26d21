/** auth/: the login token, the login, the session shared in the process, `authenticate`. */
export { authenticateRequest } from './authenticate';
export { loginForRun, sharedLogin } from './session';
