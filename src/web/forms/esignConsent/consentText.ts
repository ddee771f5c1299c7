/** The e-sign consent's wording as compliance staff keep it (schemas/common/esign-consent.json). */
import raw from '../../../../schemas/common/esign-consent.json';
import { esignConsentText } from '../../../shared/forms/model/esignConsent';

export const consentText = esignConsentText(raw);
