import { main } from '../dist/clib/main.js'; await main();
