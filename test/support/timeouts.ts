// setupFilesAfterEnv: every test file's default timeout, scaled to the machine's load (time-budget.ts).
import { DEFAULT_TIMEOUT_MS, budget } from './time-budget';

jest.setTimeout(budget(DEFAULT_TIMEOUT_MS));
