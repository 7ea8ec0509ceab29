import pino from 'pino';
import { logTo } from '../../src/ops/logger';
import { suiteLogFile } from './suite-secrets';

// Every line the test file's in-process backends log, at debug, into the run's log directory
// (the level the suite prints stays BATON_LOG_LEVEL's): global-setup.ts's teardown looks there
// for the secrets the tests used. Tests that read their own lines replace this and put it back.
logTo(pino.destination({ dest: suiteLogFile(), sync: true, append: true }), 'debug');
