import { pinCommand } from './interface-pull.js';

export const interfaceAcceptCommand = pinCommand('accept');
