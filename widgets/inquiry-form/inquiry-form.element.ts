import { defineElement } from '../lib/element.tsx';
import { inquiryFormAttributes } from './inquiry-form.attributes.ts';
import { InquiryFormElement } from './inquiry-form.tsx';
import texts from 'virtual:exp-texts/inquiry-form';
import utilities from 'virtual:exp-utilities/inquiry-form';

/**
 * The inquiry form: name and e-mail required, phone and message optional, translated validation.
 * Stored before any delivery; the recipient is decided by the server from the listing's agent (or
 * the agent addressed), never by the page. A double click or a retry never makes two inquiries.
 *
 * @tag exp-inquiry-form
 * @event exp-inquiry-sent - The inquiry was stored. detail: `{ id, propertyId, agentId }`.
 * @csspart root - The element's root box.
 * @csspart inquiry-form - The form.
 * @csspart submit - The submit button.
 * @csspart field-error - A field's error message.
 * @csspart inquiry-error - The message shown when sending failed.
 * @csspart toast - Each toast.
 * @cssprop --exp-color-primary - The submit button.
 * @cssprop --exp-color-danger - Errors.
 * @cssprop --exp-color-border - Field borders.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-inquiry-form',
  utilities,
  texts,
  attributes: inquiryFormAttributes,
  component: InquiryFormElement,
});
