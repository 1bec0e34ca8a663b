/** Spec §8: the failure texts of saving and sending a campaign. */
export const SAVE_FAILED = 'Failed to save campaign. Please try again.';
export const SEND_FAILED = 'Failed to send campaign. Please try again.';
