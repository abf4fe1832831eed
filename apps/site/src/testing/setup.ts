import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// What a test waits for (findBy…, waitFor) may take longer than a second on a machine whose cores
// are all busy (the whole suite at once): a wait is not a timing assertion.
configure({ asyncUtilTimeout: 5_000 });
